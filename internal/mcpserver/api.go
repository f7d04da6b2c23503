package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

type apiIn struct {
	Method   string            `json:"method,omitempty" jsonschema:"HTTP method (default GET, or POST when a body is given)"`
	Path     string            `json:"path" jsonschema:"Path under /api, e.g. playgrounds/42 or /api/playspecs; a query string is allowed"`
	Body     map[string]any    `json:"body,omitempty" jsonschema:"JSON object sent as the request body"`
	Query    map[string]string `json:"query,omitempty" jsonschema:"Query parameters added to the path's own"`
	Paginate bool              `json:"paginate,omitempty" jsonschema:"Follow page from the first to the last and return one array of every page's items"`
	Confirm  bool              `json:"confirm,omitempty" jsonschema:"Must be true for a request that may change something (any method but GET, except the POSTs that only read or test: a status refresh, a logs snapshot, a connection test)"`
	mutationArgs
	waitArgs
}

// method is the request's method: the one given, else POST with a body
// and GET without.
func (in apiIn) method() string {
	switch {
	case in.Method != "":
		return strings.ToUpper(in.Method)
	case in.Body != nil:
		return http.MethodPost
	}
	return http.MethodGet
}

// path is the request's path under /api, or "" when it is not one.
func (in apiIn) path() string {
	p, err := client.APIPath(in.Path)
	if err != nil {
		return ""
	}
	return p
}

func (in apiIn) validate() error {
	if err := nonBlank("path", in.Path); err != nil {
		return err
	}
	if _, err := client.APIPath(in.Path); err != nil {
		return invalidArgument("path", "%v", err)
	}
	if in.Paginate && in.method() != http.MethodGet {
		return invalidArgument("paginate", "paginate needs a GET, not %s", in.method())
	}
	return nil
}

func (in apiIn) confirmed() bool { return in.Confirm }
func (in apiIn) gated() bool     { return !client.ReadOnlyRequest(in.method(), in.path()) }
func (in apiIn) question() string {
	return "Send " + in.method() + " " + in.path() + " to the Fibe API?"
}

// api is `fibe api` for agents: any endpoint under the whole contract (a
// key on every mutation, the journal, 202 waited on, breaker, ledger).
func api() *Tool {
	return define(spec{name: "fibe_api", title: "Call any Fibe API endpoint", destructive: true, ungated: true,
		desc: "Call any endpoint under /api with the same reliability as every other tool (idempotency key on mutations, " +
			"retries, 202 waited on unless wait is false, circuit breaker, rate ledger, typed errors). The result is the " +
			"answer's JSON (or its text), exactly what `fibe api --json` prints. A request that may change something (any method but GET, " +
			"except the POSTs that only read or test) asks the user first, as the destructive tools do, or needs \"confirm\": true. " +
			"Use the dedicated tools where one exists.",
		output: anyObject(),
		tweak: func(s *jsonschema.Schema) {
			enum(s, "method", "GET", "POST", "PUT", "PATCH", "DELETE")
		}},
		func(ctx context.Context, c *call, in *apiIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			req := client.APIRequest{Method: in.Method, Path: in.Path, Mutation: in.mutationArgs.options(),
				Wait: in.waitArgs.options(c), Paginate: in.Paginate}
			if in.Body != nil {
				if req.Body, err = json.Marshal(in.Body); err != nil {
					return nil, invalidArgument("body", "body is not JSON: %v", err)
				}
			}
			if len(in.Query) > 0 {
				req.Query = url.Values{}
				for k, v := range in.Query {
					req.Query.Set(k, v)
				}
			}
			res, err := cl.API(ctx, req)
			if res != nil {
				c.resp = res.Meta
			}
			if err != nil {
				return nil, err
			}
			if res.JSON() {
				return json.RawMessage(res.Body), nil
			}
			return map[string]any{"status": res.Status, "content_type": res.ContentType, "text": string(res.Body)}, nil
		})
}
