package fibe

import (
	"encoding/json"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// Response is what a call learnt of its final answer. Its methods are
// nil-safe; a call that returns a nil error returns a non-nil Response.
type Response struct {
	meta *client.Response
	page ListMeta
}

func newResponse(meta *client.Response) *Response { return &Response{meta: meta} }

// StatusCode is the HTTP status of the final answer.
func (r *Response) StatusCode() int {
	if r == nil || r.meta == nil {
		return 0
	}
	return r.meta.StatusCode
}

// RequestID is the answer's X-Request-Id.
func (r *Response) RequestID() string {
	if r == nil || r.meta == nil {
		return ""
	}
	return r.meta.RequestID
}

// Replayed reports whether the answer carried X-Idempotent-Replayed: true:
// the server had already done this mutation and answered as it did then.
func (r *Response) Replayed() bool { return r != nil && r.meta != nil && r.meta.Replayed }

// IdempotencyKey is the key the mutation was sent with; "" for reads.
func (r *Response) IdempotencyKey() string {
	if r == nil || r.meta == nil {
		return ""
	}
	return r.meta.IdempotencyKey
}

// Operation is the 202 handle whenever the server answered 202, else nil.
func (r *Response) Operation() *Operation {
	if r == nil || r.meta == nil || r.meta.Accepted == nil {
		return nil
	}
	h := r.meta.Accepted
	return &Operation{ID: h.RequestID, Status: h.Status, StatusURL: h.StatusURL}
}

// RateLimit is the X-RateLimit-* of the final answer, if it had them.
func (r *Response) RateLimit() (RateLimit, bool) {
	if r == nil || r.meta == nil || r.meta.RateLimit == nil {
		return RateLimit{}, false
	}
	return RateLimit(*r.meta.RateLimit), true
}

// Page is the "meta" of a list's answer; zero for other calls.
func (r *Response) Page() ListMeta {
	if r == nil {
		return ListMeta{}
	}
	return r.page
}

// RateLimit is a rate-limit window: Limit requests per window, Remaining
// of them left, the window ending at Reset.
type RateLimit struct {
	Limit     int       `json:"limit"`
	Remaining int       `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// BreakerStatus is one circuit breaker: State is closed, open or
// half-open; OpenUntil is when an open one half-opens.
type BreakerStatus struct {
	Resource            string    `json:"resource"`
	State               string    `json:"state"`
	ConsecutiveFailures int       `json:"consecutive_failures"`
	OpenUntil           time.Time `json:"open_until,omitzero"`
}

// ListMeta is the "meta" of a list: the page, its size and the total.
type ListMeta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total"`
}

// Operation is an accepted (202) operation: ID is its request id, Status
// queued, running, success or error. Result is the success result, as the
// call would have answered without a 202; Err the error it ended with
// when Status is "error".
type Operation struct {
	ID        string          `json:"request_id"`
	Status    string          `json:"status"`
	StatusURL string          `json:"status_url,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Err       *Error          `json:"error,omitempty"`
}

// Decode decodes Result into v; a Result that is not v's JSON is
// INVALID_RESPONSE.
func (o *Operation) Decode(v any) error {
	if o == nil || len(o.Result) == 0 {
		return &Error{Code: CodeInvalidResponse, Message: "the operation has no result", Details: map[string]any{}}
	}
	if err := json.Unmarshal(o.Result, v); err != nil {
		return &Error{Code: CodeInvalidResponse, Message: "the operation's result is not the expected JSON: " + oneLine(err.Error()),
			RequestID: o.ID, OperationID: o.ID, Details: map[string]any{}, cause: err}
	}
	return nil
}

// convert copies an engine value into the public type of the same JSON.
func convert[T any](v any) (*T, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, &Error{Code: CodeInvalidResponse, Message: oneLine(err.Error()), Details: map[string]any{}, cause: err}
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, &Error{Code: CodeInvalidResponse, Message: oneLine(err.Error()), Details: map[string]any{}, cause: err}
	}
	return &out, nil
}

// convertAll converts a list of engine values.
func convertAll[T, S any](items []S) ([]*T, error) {
	out := make([]*T, 0, len(items))
	for i := range items {
		v, err := convert[T](&items[i])
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
