package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability"
)

// Body size limits: a success body is data the caller wants; an error body
// only needs its envelope.
const (
	maxBodyBytes      = 16 << 20
	maxErrorBodyBytes = 64 << 10
)

// request is one logical request: its attempts share everything here,
// the Idempotency-Key above all.
type request struct {
	method   string
	ref      string // path under the API, or an absolute URL (status_url)
	body     any    // JSON-encoded once; nil → no body
	key      string // Idempotency-Key; set on every mutation
	resource string // breaker resource
	asyncID  string // set on polls: the async request id

	url         string // resolved, for events
	rateLimited bool   // subject to the API host's rate ledger
}

type response struct {
	status int
	header http.Header
	body   []byte
	meta   *Response
}

// do sends one logical HTTP request through the retry loop and returns the
// 2xx answer or a *Error.
func (c *Client) do(ctx context.Context, r *request) (*response, error) {
	u, err := c.resolve(r.ref)
	if err != nil {
		return nil, errorf(CodeInvalidResponse, "bad URL %q", oneLine(r.ref))
	}
	if err := c.checkTarget(u); err != nil {
		return nil, err
	}
	var payload []byte
	if r.body != nil {
		if payload, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
	}
	auth := c.mayAuthorize(u)
	r.url = u.String()
	r.rateLimited = sameOrigin(u, c.base)
	return c.loop(ctx, r, func(ctx context.Context, n int) outcome {
		c.trace.request(r, u, n, c.policy.Attempts(), payload, auth)
		started := c.clock.Now()
		resp, aerr, timedOut := c.attempt(ctx, r, u, payload)
		out := outcome{resp: resp, attempt: reliability.Attempt{Err: aerr, TimedOut: timedOut,
			Idempotent: r.method == http.MethodGet || r.method == http.MethodHead || r.key != ""}}
		if resp == nil {
			if aerr != nil && ctx.Err() == nil {
				c.trace.printf("<-- no response after %s", c.clock.Now().Sub(started).Round(time.Millisecond))
			}
			out.err = transportError(aerr, timedOut, r)
			return out
		}
		c.trace.response(resp, c.clock.Now().Sub(started))
		out.attempt.Status = resp.status
		if rl, ok := reliability.ParseRateLimit(resp.header); ok {
			resp.meta.RateLimit = &rl
			if r.rateLimited {
				if err := c.ledger.Observe(rl); err != nil {
					c.trace.printf("rate ledger not saved: %v", err)
				}
			}
		}
		if resp.status < 200 || resp.status > 299 {
			out.err = c.httpError(resp, r)
			out.attempt.Reason, _ = out.err.Details["reason"].(string)
			return out
		}
		if resp.meta.Replayed {
			c.emit(Event{Kind: EventReplay, Method: r.method, URL: r.url, RequestID: resp.meta.RequestID, Resource: r.resource})
		}
		return out
	})
}

// outcome is how one attempt ended: the answer (if any), the typed error
// (nil on success) and what the policy needs to classify it.
type outcome struct {
	resp    *response
	err     *Error
	attempt reliability.Attempt
}

// loop is the retry loop, the only one in the project: rate-ledger wait,
// breaker admission, one attempt, classification, then Retry-After or
// full-jitter backoff, until success, a terminal answer, an open breaker,
// the end of the budget or cancellation.
func (c *Client) loop(ctx context.Context, r *request, send func(ctx context.Context, n int) outcome) (*response, error) {
	if r.resource == "" {
		r.resource = c.HostResource()
	}
	bo := reliability.NewBackOff(c.policy, c.rand)
	attempts := c.policy.Attempts()
	var honoured time.Duration
	var last *Error
	for n := 1; ; n++ {
		if wait := c.ledger.Wait(); wait > 0 && r.rateLimited {
			c.trace.printf("rate limit spent: waiting %s for the window to refill", wait.Round(time.Millisecond))
			c.emit(Event{Kind: EventRateWait, Method: r.method, URL: r.url, Delay: wait, Reason: "rate limit spent", Resource: r.resource})
			if err := c.clock.Sleep(ctx, wait); err != nil {
				return nil, c.cancelled(ctx, r, last)
			}
		}
		if ctx.Err() != nil {
			return nil, c.cancelled(ctx, r, last)
		}
		ticket, err := c.breakers.Allow(r.resource)
		if err != nil {
			return nil, c.circuitOpen(err, r, last)
		}
		c.emit(Event{Kind: EventAttempt, Method: r.method, URL: r.url, Attempt: n, Resource: r.resource})
		out := send(ctx, n)
		out.attempt.Cancelled = ctx.Err() != nil
		d := reliability.Classify(out.attempt)
		state := ticket.Done(d.Breaker)
		if out.attempt.Cancelled {
			return nil, c.cancelled(ctx, r, last)
		}
		if out.err == nil {
			return out.resp, nil
		}
		e := out.err
		e.Retryable, e.Resource = d.Retry, r.resource
		if honoured > 0 {
			e.RetryAfter = honoured
		}
		last = e
		if !d.Retry {
			return nil, e
		}
		delay := bo.NextBackOff()
		if delay == backoff.Stop {
			return nil, e // budget spent: the last answer is the most useful error
		}
		if state == gobreaker.StateOpen {
			// The breaker opened on this attempt: the rest of the budget is not sent.
			return nil, c.circuitOpen(c.openError(r.resource), r, last)
		}
		why := d.Reason + "; full-jitter backoff"
		if out.resp != nil {
			if ra, ok := reliability.ParseRetryAfter(out.resp.header.Get("Retry-After"), c.clock.Now(), c.policy.MaxDelay); ok {
				delay, honoured, why = ra, ra, d.Reason+"; Retry-After"
				e.RetryAfter = ra
			}
		}
		c.trace.printf("retry %d/%d in %s: %s", n, attempts-1, delay.Round(time.Millisecond), why)
		c.emit(Event{Kind: EventRetry, Method: r.method, URL: r.url, Attempt: n, Delay: delay, Reason: why,
			RequestID: e.RequestID, Resource: r.resource})
		if err := c.clock.Sleep(ctx, delay); err != nil {
			return nil, c.cancelled(ctx, r, last)
		}
	}
}

// attempt sends one HTTP request and reads the whole answer under the
// attempt timeout; a reset half way through the body is a failed attempt.
func (c *Client) attempt(ctx context.Context, r *request, u *url.URL, payload []byte) (*response, error, bool) {
	actx, cancel := context.WithTimeout(ctx, c.policy.AttemptTimeout)
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, r.method, u.String(), body)
	if err != nil {
		return nil, err, false
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.key != "" {
		req.Header.Set("Idempotency-Key", r.key)
	}
	if c.apiKey != "" && c.mayAuthorize(u) {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err, timedOut(ctx, actx)
	}
	defer res.Body.Close()
	limit := int64(maxBodyBytes)
	if res.StatusCode < 200 || res.StatusCode > 299 {
		limit = maxErrorBodyBytes
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, err, timedOut(ctx, actx)
	}
	if int64(len(data)) > limit {
		if limit == maxErrorBodyBytes {
			data = data[:limit] // an error envelope this large is not one; parse what fits
		} else {
			return nil, errBodyTooLarge, false
		}
	}
	meta := &Response{
		StatusCode:     res.StatusCode,
		RequestID:      res.Header.Get("X-Request-Id"),
		Replayed:       strings.EqualFold(res.Header.Get("X-Idempotent-Replayed"), "true"),
		IdempotencyKey: r.key,
	}
	return &response{status: res.StatusCode, header: res.Header, body: data, meta: meta}, nil, false
}

var errBodyTooLarge = fmt.Errorf("response body larger than %d MiB", maxBodyBytes>>20)

func timedOut(parent, attempt context.Context) bool {
	return parent.Err() == nil && errors.Is(attempt.Err(), context.DeadlineExceeded)
}

// httpError turns a non-2xx answer into the typed error.
func (c *Client) httpError(resp *response, r *request) *Error {
	code, msg, details := parseErrorBody(resp.status, resp.header.Get("Content-Type"), resp.body)
	return &Error{Status: resp.status, Code: code, Message: msg, Details: details,
		RequestID: resp.meta.RequestID, Replayed: resp.meta.Replayed, IdempotencyKey: r.key}
}

func transportError(err error, timedOut bool, r *request) *Error {
	if errors.Is(err, errBodyTooLarge) {
		return &Error{Code: CodeInvalidResponse, Message: err.Error(), Err: err, IdempotencyKey: r.key}
	}
	if timedOut {
		return &Error{Code: CodeRequestTimeout, Message: fmt.Sprintf("%s %s: no answer before the attempt timeout", r.method, displayRef(r.ref)),
			Err: err, IdempotencyKey: r.key}
	}
	return &Error{Code: CodeNetwork, Message: fmt.Sprintf("%s %s: %s", r.method, displayRef(r.ref), reliability.Classify(reliability.Attempt{Err: err}).Reason),
		Err: err, IdempotencyKey: r.key}
}

func displayRef(ref string) string {
	if u, err := url.Parse(ref); err == nil {
		u.RawQuery, u.User = "", nil
		return u.String()
	}
	return "request"
}

// openError reads the time left of an open breaker.
func (c *Client) openError(resource string) error {
	s := c.breakers.Status(resource)
	return &reliability.OpenError{Resource: resource, State: s.State, Until: s.OpenUntil, RetryIn: s.OpenUntil.Sub(c.clock.Now())}
}

func (c *Client) circuitOpen(err error, r *request, last *Error) *Error {
	e := &Error{Code: CodeCircuitOpen, Message: err.Error(), Resource: r.resource, Err: err,
		IdempotencyKey: r.key, Details: map[string]any{"resource": r.resource}}
	var oe *reliability.OpenError
	if errors.As(err, &oe) {
		e.RetryAfter = oe.RetryIn
		e.Details["retry_in_seconds"] = int64((oe.RetryIn + time.Second - 1) / time.Second)
		e.Details["state"] = oe.State.String()
	}
	if last != nil {
		e.Details["last_error"] = last.Code
		e.RequestID = last.RequestID
	}
	if r.asyncID != "" {
		e.RequestID = r.asyncID
	}
	c.trace.printf("%s", e.Message)
	return e
}

// cancelled says what state the operation may be in: for a mutation the key
// to retry with, for a poll the request id to resume.
func (c *Client) cancelled(ctx context.Context, r *request, last *Error) *Error {
	e := &Error{Code: CodeCancelled, Err: context.Cause(ctx), IdempotencyKey: r.key, Resource: r.resource}
	if e.Err == nil {
		e.Err = context.Canceled
	}
	if last != nil {
		e.RequestID = last.RequestID
	}
	switch {
	case r.asyncID != "":
		e.RequestID = r.asyncID
		e.Message = "interrupted while waiting; the operation was accepted and may still finish: resume with `fibe ops wait " + r.asyncID + "`"
	case r.key != "":
		e.Message = "interrupted; the request may or may not have been applied: retry safely with --idempotency-key " + r.key
	default:
		e.Message = "interrupted"
	}
	return e
}

// Canned attempts for callers of loop that are not HTTP requests.
var (
	attemptOK       = reliability.Attempt{Status: http.StatusOK}
	attemptTerminal = reliability.Attempt{Status: http.StatusBadRequest}
)

func statusAttempt(e *Error) reliability.Attempt {
	if e.Status == 0 {
		if e.Code == CodeRequestTimeout {
			return reliability.Attempt{TimedOut: true, Idempotent: true}
		}
		if e.Code == CodeNetwork {
			return reliability.Attempt{Err: e}
		}
		return attemptTerminal
	}
	reason, _ := e.Details["reason"].(string)
	return reliability.Attempt{Status: e.Status, Reason: reason}
}

func transportAttempt(err error) reliability.Attempt {
	return reliability.Attempt{Err: err, Idempotent: true}
}
