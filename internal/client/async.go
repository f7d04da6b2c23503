package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// AsyncService looks at and waits on async operations by request id.
type AsyncService struct{ c *Client }

// Get takes one look at an async operation.
func (s *AsyncService) Get(ctx context.Context, requestID string) (*AsyncStatus, *Response, error) {
	if requestID == "" {
		return nil, nil, errorf(CodeBadRequest, "request id is empty")
	}
	resp, err := s.c.do(ctx, &request{method: http.MethodGet, ref: asyncPath(requestID), asyncID: requestID})
	if err != nil {
		return nil, nil, err
	}
	st, err := parseAsyncStatus(resp.body)
	if err != nil {
		return nil, resp.meta, invalid(resp, err)
	}
	if st.RequestID == "" {
		st.RequestID = requestID
	}
	if st.Err != nil {
		st.Err.RequestID = st.RequestID
	}
	return st, resp.meta, nil
}

// Wait waits for an async operation and returns its success result, or the
// typed error it ended with.
func (s *AsyncService) Wait(ctx context.Context, requestID string, wo WaitOptions) (json.RawMessage, *Response, error) {
	if requestID == "" {
		return nil, nil, errorf(CodeBadRequest, "request id is empty")
	}
	h := &AsyncHandle{RequestID: requestID}
	return s.c.waitAsync(ctx, h, "", "", wo, nil)
}

func asyncPath(id string) string { return "/api/async_requests/" + url.PathEscape(id) }

// parseAsyncStatus reads a poll answer in either shape of docs/api.md.
func parseAsyncStatus(body []byte) (*AsyncStatus, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil || m == nil {
		return nil, errors.New("async status is not a JSON object")
	}
	st := &AsyncStatus{Raw: json.RawMessage(bytes.Clone(body))}
	if err := jsonString(m["status"], &st.Status); err != nil || st.Status == "" {
		return nil, errors.New("async status has no status")
	}
	_ = jsonString(m["request_id"], &st.RequestID)
	switch st.Status {
	case "success":
		if r, ok := m["result"]; ok {
			st.Result = r
		} else {
			// Older servers put the result fields at the top level.
			rest := map[string]json.RawMessage{}
			for k, v := range m {
				switch k {
				case "status", "request_id", "status_url":
				default:
					rest[k] = v
				}
			}
			st.Result, _ = json.Marshal(rest)
		}
	case "error":
		st.Err = asyncError(m)
	}
	return st, nil
}

// asyncError builds the typed error of a failed operation: code from the
// body (REMOTE_REQUEST_FAILED when none), details kept.
func asyncError(m map[string]json.RawMessage) *Error {
	e := &Error{Async: true}
	_ = jsonString(m["code"], &e.Code)
	_ = jsonString(m["message"], &e.Message)
	_ = json.Unmarshal(m["details"], &e.Details)
	if raw, ok := m["error"]; ok {
		var s string
		var obj struct {
			Code    string         `json:"code"`
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		}
		if json.Unmarshal(raw, &s) == nil {
			if e.Message == "" {
				e.Message = s
			}
		} else if json.Unmarshal(raw, &obj) == nil {
			e.Code = pick(e.Code, obj.Code)
			e.Message = pick(e.Message, obj.Message)
			if e.Details == nil {
				e.Details = obj.Details
			}
		}
	}
	var code string
	if jsonString(m["error_code"], &code) == nil {
		e.Code = pick(e.Code, code)
	}
	if e.Details == nil {
		_ = json.Unmarshal(m["error_details"], &e.Details)
	}
	var status json.Number
	if raw, ok := m["error_status"]; ok && json.Unmarshal(raw, &status) == nil {
		if n, err := status.Int64(); err == nil && n >= 100 && n <= 599 {
			e.Status = int(n)
		}
	}
	e.Code = sanitizeCode(e.Code, 0)
	if e.Code == CodeInvalidResponse { // no usable code in the body
		e.Code = CodeRemoteFailed
	}
	e.Message = oneLine(e.Message)
	if e.Message == "" {
		e.Message = "the remote operation failed"
	}
	return e
}

func jsonString(raw json.RawMessage, out *string) error {
	if len(raw) == 0 {
		return errors.New("absent")
	}
	return json.Unmarshal(raw, out)
}

func invalid(resp *response, cause error) *Error {
	return &Error{Status: resp.status, Code: CodeInvalidResponse, Message: oneLine(cause.Error()),
		RequestID: resp.meta.RequestID, IdempotencyKey: resp.meta.IdempotencyKey, Err: cause}
}

// accepted reads a 202 answer's handle.
func accepted(resp *response) (*AsyncHandle, error) {
	var h AsyncHandle
	if err := json.Unmarshal(resp.body, &h); err != nil || h.RequestID == "" {
		return nil, invalid(resp, errors.New("202 answer without a request_id"))
	}
	resp.meta.Accepted = &h
	return &h, nil
}

// waitAsync polls an accepted operation until it ends; key and resource are
// those of the mutation that started it, onEvent its callback
// (MutationOptions.OnEvent), nil for a wait on its own (ops wait).
func (c *Client) waitAsync(ctx context.Context, h *AsyncHandle, key, resource string, wo WaitOptions, onEvent func(Event)) (json.RawMessage, *Response, error) {
	ref := h.StatusURL
	if ref == "" {
		ref = asyncPath(h.RequestID)
	}
	poller := reliability.NewPoller(c.policy, c.clock)
	if wo.Timeout > 0 {
		poller.Timeout = wo.Timeout
	}
	if wo.PollInterval > 0 {
		poller.Interval = wo.PollInterval
	}
	started := c.clock.Now()
	var (
		result json.RawMessage
		last   *AsyncStatus
		meta   *Response
		failed *Error
	)
	err := poller.Run(ctx, func(ctx context.Context, n int) (bool, time.Duration, error) {
		resp, err := c.do(ctx, &request{method: http.MethodGet, ref: ref, resource: resource, asyncID: h.RequestID, onEvent: onEvent})
		if err != nil {
			if e, ok := AsError(err); ok {
				e.IdempotencyKey = pick(e.IdempotencyKey, key)
				if e.Code == CodeNotFound {
					e.Message = "async request " + h.RequestID + " is unknown to the server"
				}
				// RequestID stays the X-Request-Id of the failed poll's answer.
				e.AsyncRequestID = h.RequestID
				if e.Details == nil {
					e.Details = map[string]any{}
				}
				e.Details["async_request_id"] = h.RequestID
				return false, 0, pollError(e)
			}
			return false, 0, err
		}
		meta = resp.meta
		st, perr := parseAsyncStatus(resp.body)
		if perr != nil {
			return false, 0, invalid(resp, perr)
		}
		last = st
		c.trace.printf("poll %d of %s: %s", n, h.RequestID, oneLine(st.Status))
		c.emitTo(onEvent, Event{Kind: EventPoll, Method: http.MethodGet, URL: ref, RequestID: h.RequestID, Status: st.Status,
			Polls: n, Elapsed: c.clock.Now().Sub(started), Resource: resource})
		switch st.Status {
		case "success":
			result = st.Result
			return true, 0, nil
		case "error":
			failed = st.Err
			failed.RequestID, failed.IdempotencyKey, failed.Resource = h.RequestID, key, resource
			failed.AsyncRequestID = h.RequestID
			return true, 0, nil
		}
		ra, _ := reliability.ParseRetryAfter(resp.header.Get("Retry-After"), c.clock.Now(), c.policy.MaxDelay)
		return false, ra, nil
	})
	switch {
	case failed != nil:
		return nil, meta, failed
	case errors.Is(err, reliability.ErrPollTimeout):
		e := &Error{Code: CodeAsyncTimeout, RequestID: h.RequestID, IdempotencyKey: key, Resource: resource, Async: true,
			AsyncRequestID: h.RequestID, Resume: &Resume{WaitRequestID: h.RequestID},
			Message: fmt.Sprintf("operation %s still pending after %s%s; it may still finish",
				h.RequestID, poller.Timeout, lastPollFailure(err)),
			Details: map[string]any{"request_id": h.RequestID}}
		if last != nil {
			e.Details["status"] = last.Status
			e.Details["last_status"] = last.Raw
		}
		addLastPollError(e.Details, err)
		return nil, meta, e
	case err != nil && ctx.Err() != nil:
		return nil, meta, c.cancelled(ctx, &request{key: key, resource: resource, asyncID: h.RequestID})
	case err != nil:
		return nil, meta, err
	}
	return result, meta, nil
}

// pollError decides whether a failed poll ends the wait. A poll whose own
// retries are spent on a retryable answer, or that the open breaker kept
// from being sent, leaves the operation running without us: the wait goes
// on to its deadline, the breaker pacing the polls (docs/contract.md §5). Anything
// else (a 404: the request is unknown; a 401; a body that is not a
// status) ends it at once.
func pollError(e *Error) error {
	switch {
	case e.Code == CodeCircuitOpen:
		return reliability.PollFailed(e, e.RetryAfter)
	case e.Code == CodeCancelled:
		return e
	case e.Retryable:
		return reliability.PollFailed(e, 0)
	}
	return e
}

// lastPollError is the failure of the last poll before the deadline, if the
// last poll failed.
func lastPollError(err error) (*Error, bool) {
	var te *reliability.PollTimeoutError
	if errors.As(err, &te) && te.Last != nil {
		return AsError(te.Last)
	}
	return nil, false
}

// lastPollFailure words the last poll's failure for a timeout message.
func lastPollFailure(err error) string {
	if e, ok := lastPollError(err); ok {
		return " (the last poll failed: " + e.Code + ")"
	}
	return ""
}

// addLastPollError puts the last poll's failure in a timeout's details.
func addLastPollError(details map[string]any, err error) {
	e, ok := lastPollError(err)
	if !ok {
		return
	}
	details["last_error"] = e.Code
	details["last_error_message"] = e.Message
	if e.Status != 0 {
		details["last_error_status"] = e.Status
	}
	if e.RequestID != "" {
		details["last_error_request_id"] = e.RequestID
	}
}
