package client

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

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
	body     any    // JSON-encoded once (a *rawBody is sent as it is); nil → no body
	key      string // Idempotency-Key; set on every mutation
	resource string // breaker resource
	asyncID  string // set on polls: the async request id
	// contentType is the body's when it is not JSON (a multipart upload).
	contentType string
	// readOnly: a POST that only reads or tests (a logs snapshot, a status
	// refresh, a connection test; docs/contract.md §10). Nothing is left
	// to finish when its answer is lost: running it again asks again.
	readOnly bool

	header http.Header // extra headers (fibe api)
	// onEvent is the callback of the operation this request belongs to
	// (MutationOptions.OnEvent): its attempts, retries, replay and polls.
	onEvent func(Event)

	// answers are non-2xx statuses that are answers rather than failures
	// (a device login's pending, denied and expired polls): the body is
	// returned like a 2xx one, and nothing retries them.
	answers []int
	// safe: sending it again changes nothing (a poll), so it is retried
	// like a GET although its method is POST.
	safe bool

	url         string // resolved, for events
	rateLimited bool   // subject to the API host's rate ledger

	last     *Error        // the last failed attempt's error
	unknown  bool          // an attempt was sent and got no definitive answer
	honoured time.Duration // the last Retry-After waited
	// rateWaited: the next attempt follows a 429's Retry-After, which
	// stands for the rate ledger's wait for the window resetting then.
	rateWaited time.Time

	// A mutation answered "in flight" is sent again until its deadline,
	// wait after the start (the command's --wait-timeout; 0 → the policy's).
	wait     time.Duration
	deadline time.Time
	inFlight *reliability.FullJitter

	// heldSince is when an open breaker first held this request back
	// (Policy.BreakerWait counts from then); held the breaker state last
	// announced while waiting.
	heldSince time.Time
	held      string
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
	if err := validateHeaders(r.header); err != nil {
		return nil, InvalidArgument("headers", "%v", err)
	}
	var payload []byte
	if raw, ok := r.body.(*rawBody); ok {
		payload, r.contentType = raw.data, raw.contentType
	} else if r.body != nil {
		if payload, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
	}
	r.rateLimited = sameOrigin(u, c.base)
	auth := r.rateLimited || c.mayAuthorize(u)
	r.url = u.String()
	return c.loop(ctx, r, c.newBudget(), func(ctx context.Context, n int) outcome {
		c.trace.request(r, u, n, c.policy.Attempts(), payload, auth)
		started := c.clock.Now()
		resp, aerr, timedOut := c.attempt(ctx, r, u, payload, auth)
		out := outcome{resp: resp, attempt: reliability.Attempt{Err: aerr, TimedOut: timedOut,
			Idempotent: r.method == http.MethodGet || r.method == http.MethodHead || r.key != "" || r.safe}}
		var ns *notSentError
		if errors.As(aerr, &ns) {
			// The request could not be built: nothing left, so it is not
			// retried and no breaker counts it.
			out.err = InvalidArgument(ns.field, "%s %s: %v", r.method, displayRef(r.ref), ns.err)
			out.attempt = attemptTerminal
			return out
		}
		if resp == nil {
			if aerr != nil && ctx.Err() == nil {
				c.trace.printf("<-- no response after %s", c.clock.Now().Sub(started).Round(time.Millisecond))
			}
			out.err = transportError(aerr, timedOut, r)
			if errors.Is(aerr, errBodyTooLarge) {
				// A 2xx did come: asking again fetches the same bytes, and
				// the server is up as far as the breaker is concerned.
				out.attempt = reliability.Attempt{Status: http.StatusOK}
			}
			return out
		}
		c.trace.response(resp, u, c.clock.Now().Sub(started))
		out.attempt.Status = resp.status
		if rl, ok := reliability.ParseRateLimit(resp.header); ok {
			resp.meta.RateLimit = &rl
			if r.rateLimited {
				if err := c.ledger.Observe(rl); err != nil {
					c.trace.printf("rate ledger not saved: %v", err)
				}
			}
		}
		if (resp.status < 200 || resp.status > 299) && !slices.Contains(r.answers, resp.status) {
			out.err = c.httpError(resp, r)
			out.attempt.Reason, _ = out.err.Details["reason"].(string)
			return out
		}
		if resp.meta.Replayed {
			c.emitTo(r.onEvent, Event{Kind: EventReplay, Method: r.method, URL: r.url, RequestID: resp.meta.RequestID, Resource: r.resource})
		}
		return out
	})
}

// attempt sends one HTTP request and reads the whole answer under the
// attempt timeout; a reset half way through the body is a failed attempt.
func (c *Client) attempt(ctx context.Context, r *request, u *url.URL, payload []byte, auth bool) (*response, error, bool) {
	actx, cancel := context.WithTimeout(ctx, c.policy.AttemptTimeout)
	defer cancel()
	req, err := newRequest(actx, r.method, u, payload)
	if err != nil {
		return nil, &notSentError{field: "method", err: err}, false
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", cmp.Or(r.contentType, "application/json"))
	}
	for k, vs := range r.header {
		req.Header[http.CanonicalHeaderKey(k)] = vs
	}
	if r.key != "" {
		req.Header.Set("Idempotency-Key", r.key)
	}
	if c.bearer != "" && auth {
		req.Header.Set("Authorization", c.bearer)
	}
	if c.trace != nil {
		w := &resendWatch{}
		req = req.WithContext(httptrace.WithClientTrace(actx, w.clientTrace()))
		defer func() {
			if n := w.count(); n > 0 {
				c.trace.printf("    net/http re-sent this attempt %d time(s) on a new connection: a reused keep-alive connection failed before answering", n)
			}
		}()
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
			return nil, &bodyTooLarge{status: res.StatusCode, requestID: res.Header.Get("X-Request-Id")}, false
		}
	}
	meta := &Response{
		StatusCode:     res.StatusCode,
		RequestID:      res.Header.Get("X-Request-Id"),
		Replayed:       strings.EqualFold(res.Header.Get("X-Idempotent-Replayed"), "true"),
		IdempotencyKey: r.key,
	}
	if d, err := http.ParseTime(res.Header.Get("Date")); err == nil {
		meta.Date = d
	}
	return &response{status: res.StatusCode, header: res.Header, body: data, meta: meta}, nil, false
}

// newRequest builds one attempt's request on the already resolved URL:
// net/http's constructor does the body bookkeeping (length, GetBody for
// re-sends), but given a string it would parse again what resolve parsed,
// so it gets none and the URL is set afterwards (as it would set it, with
// an empty port dropped from Host). Every attempt gets its own copy.
func newRequest(ctx context.Context, method string, u *url.URL, payload []byte) (*http.Request, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, "", body)
	if err != nil {
		return nil, err
	}
	*req.URL = *u
	req.URL.Host = strings.TrimSuffix(u.Host, ":")
	req.Host = req.URL.Host
	return req, nil
}

// resendWatch notices net/http's own re-send of an idempotent request
// after a reused keep-alive connection failed before the first byte of an
// answer (see the package doc): a second connection with no answer on the
// first. A redirect also takes a second connection, but after an answer.
type resendWatch struct {
	mu       sync.Mutex
	conns    int
	answered bool
	resends  int
}

func (w *resendWatch) clientTrace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) {
			w.mu.Lock()
			defer w.mu.Unlock()
			if w.conns > 0 && !w.answered {
				w.resends++
			}
			w.conns++
			w.answered = false
		},
		GotFirstResponseByte: func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.answered = true
		},
	}
}

func (w *resendWatch) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.resends
}

// notSentError is a request the client could not build: nothing was sent.
type notSentError struct {
	field string
	err   error
}

func (e *notSentError) Error() string { return e.err.Error() }
func (e *notSentError) Unwrap() error { return e.err }

var errBodyTooLarge = fmt.Errorf("response body larger than %d MiB", maxBodyBytes>>20)

// bodyTooLarge is errBodyTooLarge with what the answer said of itself.
type bodyTooLarge struct {
	status    int
	requestID string
}

func (e *bodyTooLarge) Error() string { return errBodyTooLarge.Error() }
func (e *bodyTooLarge) Unwrap() error { return errBodyTooLarge }

func timedOut(parent, attempt context.Context) bool {
	return parent.Err() == nil && errors.Is(attempt.Err(), context.DeadlineExceeded)
}

// httpError turns a non-2xx answer into the typed error.
// It keeps the answer's Retry-After for the loop, which decides whether to
// honour it.
func (c *Client) httpError(resp *response, r *request) *Error {
	code, msg, details := parseErrorBody(resp.status, resp.header.Get("Content-Type"), resp.body)
	e := &Error{Status: resp.status, Code: code, Message: msg, Details: details,
		RequestID: resp.meta.RequestID, Replayed: resp.meta.Replayed, IdempotencyKey: r.key}
	e.retryAfter, e.hasRetryAfter = reliability.ParseRetryAfter(resp.header.Get("Retry-After"), c.clock.Now(), c.policy.MaxDelay)
	return e
}

func transportError(err error, timedOut bool, r *request) *Error {
	if errors.Is(err, errBodyTooLarge) {
		e := &Error{Code: CodeInvalidResponse, Message: err.Error(), Err: err, IdempotencyKey: r.key}
		var big *bodyTooLarge
		if errors.As(err, &big) {
			e.Status, e.RequestID = big.status, big.requestID
		}
		return e
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
