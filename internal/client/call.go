package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// call runs a GET (or any request without a key) and decodes a 2xx JSON
// body into out.
func (c *Client) call(ctx context.Context, r *request, out any) (*Response, error) {
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := decode(resp, out); err != nil {
		return resp.meta, err
	}
	return resp.meta, nil
}

// mutation is one logical mutation: the key is minted (or validated) once
// here and every attempt and poll of the operation carries it.
type mutation struct {
	method, path string
	body         any
	resource     string // breaker resource
	mo           MutationOptions
	wo           WaitOptions
}

// mutate sends a mutation and, on a 202, waits for the operation unless
// NoWait. The success result (sync body or async result) is decoded into
// out. With NoWait and a 202, out is untouched and Response.Accepted is set.
func (c *Client) mutate(ctx context.Context, m mutation, out any) (_ *Response, err error) {
	if err := checkKey(m.mo); err != nil {
		return nil, err
	}
	key, settle := c.claimKey(m) // the journal's (docs/contract.md §10)
	defer func() { settle(err) }()
	r := &request{method: m.method, ref: m.path, body: m.body, key: key, resource: m.resource, wait: m.wo.Timeout,
		readOnly: ReadOnlyRequest(m.method, m.path), onEvent: m.mo.OnEvent}
	resp, err := c.do(ctx, r)
	if err != nil {
		return nil, err
	}
	if resp.status != http.StatusAccepted {
		return resp.meta, decode(resp, out)
	}
	h, err := accepted(resp)
	if err != nil {
		return resp.meta, err
	}
	c.trace.printf("accepted: request %s (%s)", oneLine(h.RequestID), oneLine(h.Status))
	c.emitTo(r.onEvent, Event{Kind: EventAccepted, Method: m.method, URL: m.path, RequestID: h.RequestID, Status: h.Status, Resource: m.resource})
	if m.wo.NoWait {
		return resp.meta, nil
	}
	wo := m.wo
	if r.inFlight != nil {
		// Part of the wait went to the mutation in flight: the command's
		// deadline bounds both.
		wo.Timeout = max(r.deadline.Sub(c.clock.Now()), time.Millisecond)
	}
	result, poll, err := c.waitAsync(ctx, h, key, m.resource, wo, r.onEvent)
	if err != nil {
		return resp.meta, err
	}
	if out != nil && len(bytes.TrimSpace(result)) > 0 {
		if err := json.Unmarshal(result, out); err != nil {
			e := &Error{Code: CodeInvalidResponse, Message: "async result is not the expected JSON: " + oneLine(err.Error()),
				IdempotencyKey: key, Async: true, Err: err, AsyncRequestID: h.RequestID,
				Details: map[string]any{"async_request_id": h.RequestID}}
			if poll != nil {
				e.RequestID = poll.RequestID // the answer that carried the result
			}
			return resp.meta, e
		}
	}
	return resp.meta, nil
}

// decode reads a 2xx body into out; an empty body (204) leaves out as is.
func decode(resp *response, out any) error {
	body := bytes.TrimSpace(resp.body)
	if out == nil || len(body) == 0 {
		return nil
	}
	if bytes.Equal(body, []byte("null")) {
		// json.Unmarshal would leave out as it was: a card of zeros.
		return invalid(resp, errors.New("response body is null, not the expected JSON object"))
	}
	if err := json.Unmarshal(resp.body, out); err != nil {
		return invalid(resp, fmt.Errorf("response body is not the expected JSON: %v", err))
	}
	return nil
}

type listEnvelope[T any] struct {
	Data []T      `json:"data"`
	Meta ListMeta `json:"meta"`
}

func listQuery(path string, o ListOptions) string {
	q := url.Values{}
	if o.Page > 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.PerPage > 0 {
		q.Set("per_page", strconv.Itoa(o.PerPage))
	}
	if o.Status != "" {
		q.Set("status", o.Status)
	}
	if o.Name != "" {
		q.Set("name", o.Name)
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// maxPages bounds ListAll against a server whose "total" never arrives.
const maxPages = 1000

func listAll[T any](ctx context.Context, o ListOptions, page func(context.Context, ListOptions) ([]T, *ListMeta, error)) ([]T, error) {
	if o.Page <= 0 {
		o.Page = 1
	}
	if o.PerPage <= 0 {
		o.PerPage = 100
	}
	var all []T
	for i := 0; i < maxPages; i++ {
		items, meta, err := page(ctx, o)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if len(items) == 0 || meta == nil || (meta.Total > 0 && len(all) >= meta.Total) || (meta.Total == 0 && len(items) < o.PerPage) {
			return all, nil
		}
		o.Page++
	}
	return all, nil
}

func refPath(prefix, ref string) string { return prefix + "/" + url.PathEscape(ref) }

// checkKey rejects a supplied Idempotency-Key that the contract forbids;
// nothing is sent.
func checkKey(mo MutationOptions) error {
	if mo.IdempotencyKey == "" {
		return nil
	}
	if err := reliability.ValidateIdempotencyKey(mo.IdempotencyKey); err != nil {
		return InvalidArgument("idempotency_key", "%v", err)
	}
	return nil
}
