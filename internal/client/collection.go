package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
)

// Collection is the service of a resource the platform serves as a plain
// collection: list, get, create, update and delete at Path, bodies wrapped
// in Wrapper ({"secret": {...}}). A resource's service embeds it and adds
// its member routes with Member and Query. Requests are attributed to the
// host's breaker: these resources live on the platform, not a marquee.
type Collection[T any] struct {
	c       *Client
	Path    string // "/api/secrets"
	Wrapper string // "secret"; "" sends bodies as they are
}

// NewCollection is the collection of T at path, bodies wrapped in wrapper.
func NewCollection[T any](c *Client, path, wrapper string) *Collection[T] {
	return &Collection[T]{c: c, Path: path, Wrapper: wrapper}
}

// List returns one page; every filter of o is sent.
func (s *Collection[T]) List(ctx context.Context, o ListOptions) ([]T, *ListMeta, error) {
	var env listEnvelope[T]
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: filteredQuery(s.Path, o)}, &env); err != nil {
		return nil, nil, err
	}
	if env.Data == nil {
		env.Data = []T{}
	}
	return env.Data, &env.Meta, nil
}

// ListAll walks every page from o.Page on.
func (s *Collection[T]) ListAll(ctx context.Context, o ListOptions) ([]T, error) {
	return listAll(ctx, o, s.List)
}

// Get returns the item ref (an id, or whatever else the path accepts: a
// name, a secret's key).
func (s *Collection[T]) Get(ctx context.Context, ref string) (*T, *Response, error) {
	return s.GetQuery(ctx, ref, nil)
}

// GetQuery is Get with a query (e.g. reveal=true).
func (s *Collection[T]) GetQuery(ctx context.Context, ref string, q url.Values) (*T, *Response, error) {
	var out T
	meta, err := s.Query(ctx, http.MethodGet, ref, "", q, nil, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}

// Create creates an item from body (the fields inside the wrapper). A
// replayed create is looked up again, as for every resource.
func (s *Collection[T]) Create(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*T, *Response, error) {
	return s.CreateBody(ctx, s.wrap(body), mo, wo)
}

// CreateBody is Create with the whole request body as given, for a
// resource whose create sends fields beside its wrapper.
func (s *Collection[T]) CreateBody(ctx context.Context, body any, mo MutationOptions, wo WaitOptions) (*T, *Response, error) {
	var raw json.RawMessage
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: s.Path, body: body, mo: mo, wo: wo}, &raw)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	var id struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &id)
	if now, err := afterReplayedCreate(ctx, meta, mo, s.Wrapper, id.Name, id.ID, s.Get); err != nil {
		return nil, meta, err
	} else if now != nil {
		return now, meta, nil
	}
	return decodeItem[T](raw, meta)
}

// Update changes the fields of body.
func (s *Collection[T]) Update(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*T, *Response, error) {
	return s.UpdateWait(ctx, ref, body, mo, WaitOptions{})
}

// UpdateWait is Update whose 202, if the server answers one, is waited on
// as wo says.
func (s *Collection[T]) UpdateWait(ctx context.Context, ref string, body map[string]any, mo MutationOptions, wo WaitOptions) (*T, *Response, error) {
	var raw json.RawMessage
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPatch, path: refPath(s.Path, ref), body: s.wrap(body), mo: mo, wo: wo}, &raw)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return decodeItem[T](raw, meta)
}

// Delete deletes the item ref.
func (s *Collection[T]) Delete(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*Response, error) {
	return s.c.mutate(ctx, mutation{method: http.MethodDelete, path: refPath(s.Path, ref), mo: mo, wo: wo}, nil)
}

// Member sends a mutation to a member route, Path/ref/sub (ref "" for a
// route of the collection itself, Path/sub), with body as it is (not
// wrapped; nil for none), and decodes the answer (or the 202's result)
// into out.
func (s *Collection[T]) Member(ctx context.Context, method, ref, sub string, body any, mo MutationOptions, wo WaitOptions, out any) (*Response, error) {
	return s.c.mutate(ctx, mutation{method: method, path: s.memberPath(ref, sub), body: body, mo: mo, wo: wo}, out)
}

// Query sends a request that changes nothing (a GET, or a POST that only
// reads or checks, such as a validation): no idempotency key, no journal;
// a lost answer is asked again.
func (s *Collection[T]) Query(ctx context.Context, method, ref, sub string, q url.Values, body any, out any) (*Response, error) {
	path := s.memberPath(ref, sub)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	return s.c.call(ctx, &request{method: method, ref: path, body: body, readOnly: method != http.MethodGet}, out)
}

func (s *Collection[T]) memberPath(ref, sub string) string {
	p := s.Path
	if ref != "" {
		p = refPath(p, ref)
	}
	if sub != "" {
		p += "/" + sub
	}
	return p
}

func (s *Collection[T]) wrap(body map[string]any) any {
	if s.Wrapper == "" {
		return body
	}
	return map[string]any{s.Wrapper: body}
}

// decodeItem decodes an answer kept raw; an empty one (204) is no item.
func decodeItem[T any](raw json.RawMessage, meta *Response) (*T, *Response, error) {
	if len(raw) == 0 {
		return nil, meta, nil
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		e := &Error{Code: CodeInvalidResponse, Message: "response body is not the expected JSON: " + oneLine(err.Error())}
		if meta != nil {
			e.RequestID = meta.RequestID
		}
		return nil, meta, e
	}
	return &out, meta, nil
}
