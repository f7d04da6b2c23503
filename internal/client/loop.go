package client

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability"
)

// outcome is how one attempt ended: the answer (if any), the typed error
// (nil on success) and what the policy needs to classify it.
type outcome struct {
	resp    *response
	err     *Error
	attempt reliability.Attempt
}

// budget is the retry budget of one logical request: the policy's backoff,
// which answers backoff.Stop once the retries are spent. A plain request
// has its own; the log stream keeps one across reconnects and refills it
// only when the stream makes progress, so the lock.
type budget struct {
	mu     sync.Mutex
	policy reliability.Policy
	rand   reliability.Rand
	bo     backoff.BackOff // made on the first failure: most requests never need it
	n      int             // attempts made
}

func (c *Client) newBudget() *budget {
	return &budget{policy: c.policy, rand: c.rand}
}

func (b *budget) attempt() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	return b.n
}

func (b *budget) attempts() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// next is the full-jitter delay before the next retry, or backoff.Stop.
func (b *budget) next() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bo == nil {
		b.bo = reliability.NewBackOff(b.policy, b.rand)
	}
	return b.bo.NextBackOff()
}

// restart gives the whole budget back to the attempt now under way, which
// becomes its first: the next failure is retry 1.
func (b *budget) restart() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bo != nil {
		b.bo.Reset()
	}
	b.n = 1
}

// loop is the retry loop, the only one in the project: rate-ledger wait,
// breaker admission, one attempt, classification, then Retry-After or
// full-jitter backoff, until success, a terminal answer, an open breaker,
// the end of the budget or cancellation. Every request, poll and stream
// (re)connect runs through it.
func (c *Client) loop(ctx context.Context, r *request, b *budget, send func(ctx context.Context, n int) outcome) (*response, error) {
	if r.resource == "" {
		r.resource = c.HostResource()
	}
	if r.key != "" && r.deadline.IsZero() {
		r.deadline = c.clock.Now().Add(cmp.Or(r.wait, c.policy.PollTimeout))
	}
	for {
		n := b.attempt()
		if r.rateLimited {
			// Takes a slot of the rate-limit window, first waiting for the
			// window to refill when none is left (unless a 429's
			// Retry-After was just waited for that window).
			settled := r.rateWaited
			r.rateWaited = time.Time{}
			err := c.ledger.AdmitAfter(ctx, settled, func(wait time.Duration) {
				c.trace.printf("rate limit spent: waiting %s for the window to refill", wait.Round(time.Millisecond))
				c.emitTo(r.onEvent, Event{Kind: EventRateWait, Method: r.method, URL: r.url, Delay: wait, Reason: "rate limit spent", Resource: r.resource})
			})
			if err != nil {
				return nil, c.cancelled(ctx, r)
			}
		}
		if ctx.Err() != nil {
			return nil, c.cancelled(ctx, r)
		}
		ticket, err := c.admit(ctx, r)
		if err != nil {
			return nil, err
		}
		c.emitTo(r.onEvent, Event{Kind: EventAttempt, Method: r.method, URL: r.url, Attempt: n, Resource: r.resource})
		out := send(ctx, n)
		out.attempt.Cancelled = ctx.Err() != nil
		d := reliability.Classify(out.attempt)
		state := ticket.Done(d.Breaker)
		r.noteOutcome(out)
		if out.attempt.Cancelled {
			return nil, c.cancelled(ctx, r)
		}
		if out.err == nil {
			return out.resp, nil
		}
		if err := c.afterFailure(ctx, r, b, d, out.err, state == gobreaker.StateOpen); err != nil {
			return nil, err
		}
	}
}

// afterFailure runs between a failed attempt and the next one. It returns
// the error that ends the request (a terminal answer, the budget spent, the
// breaker just opened, cancellation), or nil after waiting what the server
// asked for (Retry-After, capped, no jitter) or else the next backoff delay.
func (c *Client) afterFailure(ctx context.Context, r *request, b *budget, d reliability.Decision, e *Error, opened bool) *Error {
	hasAsked := e.hasRetryAfter
	e.Retryable, e.Resource, e.RetryAfter = d.Retry, r.resource, r.honoured
	r.last = e
	e.OutcomeUnknown = r.outcomeUnknown()
	if e.OutcomeUnknown {
		e.Resume = &Resume{IdempotencyKey: r.key}
	}
	if !d.Retry {
		return e
	}
	if d.UntilDeadline && r.key != "" {
		return c.waitInFlight(ctx, r, b, e, d)
	}
	delay := b.next()
	if delay == backoff.Stop {
		return e // budget spent: the last answer is the most useful error
	}
	if opened {
		// The breaker opened on this attempt: the rest of the budget is not
		// sent, unless the request may wait the breaker out (admit decides).
		if c.policy.BreakerWait > 0 {
			return nil
		}
		return c.circuitOpen(c.openError(r.resource), r)
	}
	delay, why := r.delayAfter(e, d, delay)
	if hasAsked {
		if rl, ok := c.ledger.Last(); ok && e.Status == http.StatusTooManyRequests && r.rateLimited {
			r.rateWaited = rl.Reset
		}
	}
	n := b.attempts()
	c.trace.printf("retry %d/%d in %s: %s", n, c.policy.Retries(), delay.Round(time.Millisecond), why)
	c.emitTo(r.onEvent, Event{Kind: EventRetry, Method: r.method, URL: r.url, Attempt: n, Delay: delay, Reason: why,
		RequestID: e.RequestID, Resource: r.resource})
	if err := c.clock.Sleep(ctx, delay); err != nil {
		return c.cancelled(ctx, r)
	}
	return nil
}

// admit asks the breaker of r's resource to let one attempt through. When
// it is open and the policy allows waiting it out (Policy.BreakerWait,
// docs/contract.md §6), reliability.BreakerWaitStep says how long to wait
// before asking again; nothing is sent meanwhile. Otherwise, or once the
// wait is spent, the request fails with CIRCUIT_OPEN.
func (c *Client) admit(ctx context.Context, r *request) (*reliability.Ticket, *Error) {
	for {
		ticket, err := c.breakers.Allow(r.resource)
		if err == nil {
			r.held = ""
			return ticket, nil
		}
		var held *reliability.OpenError
		if !errors.As(err, &held) || c.policy.BreakerWait <= 0 {
			return nil, c.circuitOpen(err, r)
		}
		now := c.clock.Now()
		if r.heldSince.IsZero() {
			r.heldSince = now
		}
		wait, ok := reliability.BreakerWaitStep(c.policy, held, r.heldSince, now)
		if !ok {
			return nil, c.circuitOpen(err, r)
		}
		left := r.heldSince.Add(c.policy.BreakerWait).Sub(now)
		if state := held.State.String(); state != r.held {
			// Announced once per state, not on every look at a half-open
			// breaker.
			r.held = state
			c.trace.printf("%s: waiting %s (breaker wait: %s left)", err, wait.Round(time.Millisecond), left.Round(time.Second))
			c.emitTo(r.onEvent, Event{Kind: EventBreakerWait, Method: r.method, URL: r.url, Resource: r.resource,
				BreakerState: state, Delay: wait, WaitLeft: left})
		}
		if err := c.clock.Sleep(ctx, wait); err != nil {
			return nil, c.cancelled(ctx, r)
		}
	}
}

// delayAfter is the wait before the next attempt (contract §3): exactly
// the server's Retry-After (already capped) when it sent one, recorded as
// honoured, else jitter, the full-jitter delay.
func (r *request) delayAfter(e *Error, d reliability.Decision, jitter time.Duration) (time.Duration, string) {
	if !e.hasRetryAfter {
		return jitter, d.Reason + "; full-jitter backoff"
	}
	r.honoured, e.RetryAfter = e.retryAfter, e.retryAfter
	return e.retryAfter, d.Reason + "; Retry-After"
}

// waitInFlight runs after a 409 idempotency_key_in_flight: our own earlier
// attempt with this key is still running on the server, so the mutation is
// sent again with the same key, after Retry-After or the full-jitter
// backoff, until the answer is replayed. The retry budget does not bound
// this wait; the command's wait deadline does, and past it the mutation
// ends as ASYNC_TIMEOUT with the key that finishes it.
func (c *Client) waitInFlight(ctx context.Context, r *request, b *budget, e *Error, d reliability.Decision) *Error {
	left := r.deadline.Sub(c.clock.Now())
	if left <= 0 {
		return c.inFlightTimeout(r, e)
	}
	if r.inFlight == nil {
		r.inFlight = reliability.NewFullJitter(c.policy, c.rand)
	}
	delay, why := r.delayAfter(e, d, r.inFlight.NextBackOff())
	delay = min(delay, left) // one last look at the deadline
	c.trace.printf("in flight: sending again with the same key in %s (%s left of the wait): %s",
		delay.Round(time.Millisecond), left.Round(time.Second), why)
	c.emitTo(r.onEvent, Event{Kind: EventRetry, Method: r.method, URL: r.url, Attempt: b.attempts(), Delay: delay, Reason: why,
		RequestID: e.RequestID, Resource: r.resource})
	if err := c.clock.Sleep(ctx, delay); err != nil {
		return c.cancelled(ctx, r)
	}
	return nil
}

// inFlightTimeout is the end of a wait on a mutation still in flight: it
// was sent, it may finish, and the same key gets its answer.
func (c *Client) inFlightTimeout(r *request, last *Error) *Error {
	waited := cmp.Or(r.wait, c.policy.PollTimeout)
	e := &Error{Code: CodeAsyncTimeout, RequestID: last.RequestID, IdempotencyKey: r.key, Resource: r.resource,
		Retryable: true, OutcomeUnknown: true, Resume: &Resume{IdempotencyKey: r.key}, RetryAfter: last.RetryAfter,
		Message: fmt.Sprintf("the server was still running this request after %s (idempotency key %s); it may still finish, "+
			"and sending it again with the same key gets its answer", waited, r.key),
		Details: map[string]any{"reason": reliability.ReasonInFlight, "idempotency_key": r.key,
			"last_error": last.Code, "last_status": last.Status}}
	c.trace.printf("%s", e.Message)
	return e
}

// Retry runs attempt under the same loop as every HTTP request, for callers
// that speak something other than plain HTTP (a websocket): breaker
// admission for resource before each call, classification of its error,
// Retry-After or backoff between calls, the retry budget.
//
// attempt's error is classified as: nil → success; a *Error with a Status →
// by that status, and its Retry-After (as the Client reads it off an HTTP
// answer) is honoured; an error wrapped with backoff.Permanent → terminal, not
// counted; anything else → a transport failure (retryable, counted by the
// breaker). The result is nil or a *Error (CIRCUIT_OPEN, CANCELLED,
// NETWORK_ERROR, or the attempt's own *Error).
func (c *Client) Retry(ctx context.Context, resource string, attempt func(ctx context.Context) error) error {
	return c.retry(ctx, &request{method: "STREAM", ref: resource, url: resource, resource: resource}, c.newBudget(), attempt)
}

// retry is Retry on a given request and budget.
func (c *Client) retry(ctx context.Context, r *request, b *budget, attempt func(ctx context.Context) error) error {
	_, err := c.loop(ctx, r, b, func(ctx context.Context, n int) outcome {
		c.trace.printf("--> %s attempt %d/%d (breaker %s)", r.method, n, c.policy.Attempts(), r.resource)
		return attemptOutcome(attempt(ctx))
	})
	return err
}

// attemptOutcome classifies the error of a non-HTTP attempt.
func attemptOutcome(err error) outcome {
	if err == nil {
		return outcome{attempt: reliability.Attempt{Status: http.StatusOK}}
	}
	var perm *backoff.PermanentError
	if errors.As(err, &perm) {
		e := &Error{Code: CodeNetwork, Message: oneLine(perm.Err.Error()), Err: perm.Err}
		if pe, ok := AsError(perm.Err); ok {
			e.Code = pe.Code
		}
		return outcome{err: e, attempt: attemptTerminal}
	}
	if e, ok := AsError(err); ok {
		copy := *e
		return outcome{err: &copy, attempt: attemptOf(e)}
	}
	return outcome{err: &Error{Code: CodeNetwork, Message: "stream: " + oneLine(err.Error()), Err: err},
		attempt: reliability.Attempt{Err: err, Idempotent: true}}
}

// attemptTerminal is what the policy sees of an attempt that must not be
// retried and that the breaker does not count.
var attemptTerminal = reliability.Attempt{Status: http.StatusBadRequest}

// attemptOf rebuilds the policy's view of an attempt from its typed error.
// Non-HTTP attempts (a websocket) are idempotent: they carry no mutation.
func attemptOf(e *Error) reliability.Attempt {
	if e.Status == 0 {
		switch e.Code {
		case CodeRequestTimeout:
			return reliability.Attempt{TimedOut: true, Idempotent: true}
		case CodeNetwork:
			return reliability.Attempt{Err: e, Idempotent: true}
		}
		return attemptTerminal
	}
	reason, _ := e.Details["reason"].(string)
	return reliability.Attempt{Status: e.Status, Reason: reason}
}

// openError reads the time left of an open breaker.
func (c *Client) openError(resource string) error {
	s := c.breakers.Status(resource)
	return &reliability.OpenError{Resource: resource, State: s.State, Until: s.OpenUntil, RetryIn: s.OpenUntil.Sub(c.clock.Now())}
}

func (c *Client) circuitOpen(err error, r *request) *Error {
	e := &Error{Code: CodeCircuitOpen, Message: err.Error(), Resource: r.resource, Err: err,
		IdempotencyKey: r.key, Details: map[string]any{"resource": r.resource}}
	var oe *reliability.OpenError
	if errors.As(err, &oe) {
		e.RetryAfter = oe.RetryIn
		e.Details["retry_in_seconds"] = int64((oe.RetryIn + time.Second - 1) / time.Second)
		e.Details["state"] = oe.State.String()
	}
	if r.last != nil {
		e.Details["last_error"] = r.last.Code
		e.RequestID = r.last.RequestID
	}
	if r.asyncID != "" {
		e.RequestID, e.AsyncRequestID = r.asyncID, r.asyncID
		e.Resume = &Resume{WaitRequestID: r.asyncID}
	} else if e.OutcomeUnknown = r.outcomeUnknown(); e.OutcomeUnknown {
		e.Resume = &Resume{IdempotencyKey: r.key}
	}
	c.trace.printf("%s", e.Message)
	return e
}

// cancelled says what state the operation may be in: for a mutation the key
// to retry with, for a poll the request id to resume.
func (c *Client) cancelled(ctx context.Context, r *request) *Error {
	e := &Error{Code: CodeCancelled, Err: context.Cause(ctx), IdempotencyKey: r.key, Resource: r.resource}
	if e.Err == nil {
		e.Err = context.Canceled
	}
	if r.last != nil {
		e.RequestID = r.last.RequestID
	}
	switch {
	case r.asyncID != "":
		e.RequestID, e.AsyncRequestID = r.asyncID, r.asyncID
		e.Resume = &Resume{WaitRequestID: r.asyncID}
		e.Message = "interrupted while waiting; operation " + r.asyncID + " was accepted and may still finish"
	case r.key != "":
		if e.OutcomeUnknown = r.outcomeUnknown(); e.OutcomeUnknown {
			e.Resume = &Resume{IdempotencyKey: r.key}
		}
		e.Message = "interrupted; the request may or may not have been applied: sending it again with key " + r.key + " is safe"
	default:
		e.Message = "interrupted"
	}
	return e
}

// noteOutcome folds one attempt into what is known of whether the
// mutation ran (reliability.OutcomeOf decides).
func (r *request) noteOutcome(out outcome) {
	switch reliability.OutcomeOf(out.attempt) {
	case reliability.OutcomeSettled:
		r.unknown = false
	case reliability.OutcomeUnknown:
		r.unknown = true
	}
}

// outcomeUnknown: a mutation may have been applied without our knowing.
func (r *request) outcomeUnknown() bool { return r.key != "" && r.unknown && !r.readOnly }
