package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// APIRequest is any request under the API's /api path, sent with the
// whole contract: retries, breaker, rate ledger, an Idempotency-Key on
// mutations (journaled, docs/contract.md §10), a 202 waited on unless NoWait.
type APIRequest struct {
	Method string          // an HTTP method word; "" → GET, or POST with a Body
	Path   string          // "playgrounds", "/playgrounds" or "/api/playgrounds", with an optional query
	Query  url.Values      // added to the path's own query
	Body   json.RawMessage // a JSON document, or nil for none
	Header http.Header     // extra request headers (not Authorization or Idempotency-Key)

	Mutation MutationOptions
	Wait     WaitOptions
	// Paginate follows the page query parameter from the first page to the
	// last and returns one JSON array of every page's items.
	Paginate bool
}

// APIResponse is the answer to an APIRequest. Body is the answer's bytes
// as sent (JSON or not), the async operation's result after a waited 202,
// or with Paginate one JSON array.
type APIResponse struct {
	Status      int
	Header      http.Header
	ContentType string
	Body        []byte
	Meta        *Response // request id, replay, key, Accepted (the 202 handle when not waited)
}

// JSON reports whether Body is a JSON document.
func (r *APIResponse) JSON() bool { return json.Valid(r.Body) }

var methodWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]+$`) })

// APIPath turns what a user typed into a path under the API: "playgrounds"
// and "/playgrounds" mean "/api/playgrounds", a path already under /api/
// is taken as is. A URL with a scheme or a host is refused: requests go to
// the configured API only.
func APIPath(raw string) (string, error) {
	p := strings.TrimSpace(raw)
	if p == "" {
		return "", fmt.Errorf("empty path")
	}
	if strings.Contains(p, "://") || strings.HasPrefix(p, "//") {
		return "", fmt.Errorf("path %q has a scheme or a host; give a path under /api (e.g. playgrounds)", raw)
	}
	if hasDotSegment(p) {
		// Refused before resolution: "/api/../x" would leave /api with the key.
		return "", fmt.Errorf("path %q has a . or .. segment; give a path under /api without them", raw)
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
		return "", fmt.Errorf("invalid path %q", raw)
	}
	if u.Fragment != "" {
		return "", fmt.Errorf("path %q has a fragment", raw)
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if p != "/api" && !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/api?") {
		p = "/api" + p
	}
	return p, nil
}

// validate checks a request before anything is sent; the error is an
// INVALID_ARGUMENT naming the field, and nothing left the machine.
func (r *APIRequest) validate() (method, path string, err *Error) {
	method = strings.ToUpper(r.Method)
	if method == "" {
		method = http.MethodGet
		if r.Body != nil {
			method = http.MethodPost
		}
	}
	if !methodWord().MatchString(method) {
		return "", "", InvalidArgument("method", "method %q is not a word (GET, POST, PATCH, ...)", r.Method)
	}
	path, perr := APIPath(r.Path)
	if perr != nil {
		return "", "", InvalidArgument("path", "%v", perr)
	}
	if len(r.Query) > 0 {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + r.Query.Encode()
	}
	if r.Body != nil && !json.Valid(r.Body) {
		return "", "", InvalidArgument("body", "the body is not a JSON document")
	}
	if herr := validateHeaders(r.Header); herr != nil {
		return "", "", InvalidArgument("headers", "%v", herr)
	}
	if r.Paginate && method != http.MethodGet {
		return "", "", InvalidArgument("paginate", "pagination needs a GET, not %s", method)
	}
	return method, path, nil
}

// API sends one request under /api through the client's request path.
func (c *Client) API(ctx context.Context, req APIRequest) (*APIResponse, error) {
	method, path, verr := req.validate()
	if verr != nil {
		return nil, verr
	}
	if req.Paginate {
		return c.apiPages(ctx, req, path)
	}
	var body any
	if req.Body != nil {
		body = req.Body
	}
	if !isMutationMethod(method) {
		r := &request{method: method, ref: path, body: body, header: req.Header, resource: c.apiResource(ctx, method, path, req.Body)}
		resp, err := c.do(ctx, r)
		if err != nil {
			return nil, err
		}
		return c.apiAnswer(ctx, resp, r, req.Wait)
	}
	return c.apiMutation(ctx, mutation{method: method, path: path, body: body, mo: req.Mutation, wo: req.Wait}, req)
}

func (c *Client) apiMutation(ctx context.Context, m mutation, req APIRequest) (_ *APIResponse, err error) {
	if err := checkKey(m.mo); err != nil {
		return nil, err
	}
	key, settle := c.claimKey(m)
	defer func() { settle(err) }()
	r := &request{method: m.method, ref: m.path, body: m.body, key: key, header: req.Header,
		resource: c.apiResource(ctx, m.method, m.path, req.Body), onEvent: m.mo.OnEvent}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	return c.apiAnswer(ctx, resp, r, m.wo)
}

// apiAnswer turns a 2xx into the response, waiting on a 202 unless NoWait.
func (c *Client) apiAnswer(ctx context.Context, resp *response, r *request, wo WaitOptions) (*APIResponse, error) {
	out := &APIResponse{Status: resp.status, Header: resp.header, ContentType: resp.header.Get("Content-Type"),
		Body: resp.body, Meta: resp.meta}
	if body := bytes.TrimSpace(resp.body); len(body) > 0 && isJSONType(out.ContentType) && !json.Valid(body) {
		// Said to be JSON and is not: a truncated or garbled answer.
		return nil, invalid(resp, fmt.Errorf("a %d answer said to be JSON is not a JSON document (%d bytes)", resp.status, len(body)))
	}
	if resp.status != http.StatusAccepted {
		return out, nil
	}
	h, err := accepted(resp)
	if err != nil {
		return out, nil // a 202 that is not an async handle is just an answer
	}
	c.trace.printf("accepted: request %s (%s)", oneLine(h.RequestID), oneLine(h.Status))
	c.emitTo(r.onEvent, Event{Kind: EventAccepted, Method: r.method, URL: r.ref, RequestID: h.RequestID, Status: h.Status, Resource: r.resource})
	if wo.NoWait {
		return out, nil
	}
	result, _, err := c.waitAsync(ctx, h, r.key, r.resource, wo, r.onEvent)
	if err != nil {
		return out, err
	}
	out.Body, out.ContentType = bytes.TrimSpace(result), "application/json"
	if len(out.Body) == 0 {
		out.Body = []byte("null")
	}
	return out, nil
}

// apiPages follows page=1,2,... and concatenates the items: the "data"
// array of each page, or the page itself when it is an array.
func (c *Client) apiPages(ctx context.Context, req APIRequest, path string) (*APIResponse, error) {
	u, err := url.Parse(path)
	if err != nil {
		return nil, &Error{Code: CodeBadRequest, Message: err.Error(), Err: err}
	}
	q := u.Query()
	page := 1
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
		page = n
	}
	all := []json.RawMessage{}
	var last *APIResponse
	resource := c.apiResource(ctx, http.MethodGet, u.Path, nil)
	for range maxPages {
		q.Set("page", strconv.Itoa(page))
		u.RawQuery = q.Encode()
		resp, err := c.do(ctx, &request{method: http.MethodGet, ref: u.String(), header: req.Header, resource: resource})
		if err != nil {
			return nil, err
		}
		last = &APIResponse{Status: resp.status, Header: resp.header, ContentType: resp.header.Get("Content-Type"), Meta: resp.meta}
		items, meta, err := pageItems(resp.body)
		if err != nil {
			return nil, invalid(resp, err)
		}
		all = append(all, items...)
		if apiLastPage(items, meta, len(all), q.Get("per_page")) {
			break
		}
		page++
	}
	body, err := json.Marshal(all)
	if err != nil {
		return nil, err
	}
	last.Body, last.ContentType = body, "application/json"
	return last, nil
}

// apiLastPage: an empty page, the total reached, or a short page; a server
// that says nothing is followed until an empty page (maxPages at most).
func apiLastPage(items []json.RawMessage, meta *ListMeta, seen int, perPageParam string) bool {
	perPage, _ := strconv.Atoi(perPageParam)
	if meta != nil && meta.PerPage > 0 {
		perPage = meta.PerPage
	}
	switch {
	case len(items) == 0:
		return true
	case meta != nil && meta.Total > 0:
		return seen >= meta.Total
	case perPage > 0:
		return len(items) < perPage
	}
	return false
}

func pageItems(body []byte) ([]json.RawMessage, *ListMeta, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var items []json.RawMessage
		err := json.Unmarshal(trimmed, &items)
		return items, nil, err
	}
	var env struct {
		Data *[]json.RawMessage `json:"data"`
		Meta *ListMeta          `json:"meta"`
	}
	if err := json.Unmarshal(trimmed, &env); err != nil || env.Data == nil {
		return nil, nil, fmt.Errorf("a page is neither an array nor an object with a data array")
	}
	return *env.Data, env.Meta, nil
}

// apiResource attributes a request to a breaker resource: a playground's
// or a marquee's marquee, a create by its marquee field, else the host.
func (c *Client) apiResource(ctx context.Context, method, path string, body json.RawMessage) string {
	p := strings.SplitN(path, "?", 2)[0]
	segs := strings.Split(strings.Trim(strings.TrimPrefix(p, "/api/"), "/"), "/")
	ref := ""
	if len(segs) >= 2 {
		ref, _ = url.PathUnescape(segs[1])
	}
	switch {
	case len(segs) >= 2 && segs[0] == "playgrounds" && ref != "":
		return c.PlaygroundResource(ctx, ref)
	case len(segs) >= 2 && segs[0] == "marquees" && ref != "":
		return c.MarqueeResource(ctx, ref)
	case len(segs) == 1 && segs[0] == "playgrounds" && method == http.MethodPost && body != nil:
		var wrapped struct {
			Playground map[string]any `json:"playground"`
		}
		if json.Unmarshal(body, &wrapped) == nil && wrapped.Playground != nil {
			return c.createResource(wrapped.Playground)
		}
		var flat map[string]any
		if json.Unmarshal(body, &flat) == nil {
			return c.createResource(flat)
		}
	}
	return c.HostResource()
}

// isJSONType reports whether a Content-Type names JSON
// (application/json, or a +json type).
func isJSONType(ct string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(ct), ";")
	mt = strings.TrimSpace(mt)
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

func isMutationMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}
