package reliability

import (
	"context"
	"errors"
	"time"
)

// ErrPollTimeout means the poll deadline passed while the operation was
// still pending. Run returns it as a *PollTimeoutError.
var ErrPollTimeout = errors.New("poll deadline passed")

// PollTimeoutError is the end of a wait at its deadline; Last is the error
// of the last poll when it failed (nil when it answered), so the caller
// can say why the status was not seen.
type PollTimeoutError struct{ Last error }

func (e *PollTimeoutError) Error() string {
	if e.Last != nil {
		return ErrPollTimeout.Error() + "; last poll: " + e.Last.Error()
	}
	return ErrPollTimeout.Error()
}

func (e *PollTimeoutError) Is(target error) bool { return target == ErrPollTimeout }

// PollFailed wraps the error of a poll that failed without ending the wait
// (its own retries are spent on a retryable answer, or the breaker is
// open): the operation runs on without us, so the wait goes on to its
// deadline. after, when positive, is the earliest the next poll is worth
// sending (an open breaker's time left); otherwise the interval applies.
func PollFailed(err error, after time.Duration) error { return &pollFailed{err: err, after: after} }

type pollFailed struct {
	err   error
	after time.Duration
}

func (e *pollFailed) Error() string { return e.err.Error() }
func (e *pollFailed) Unwrap() error { return e.err }

// SlowDown is what a poll returns when the server asked for slower polling
// (a slow_down answer, or a 429 that outlasted its retries): the poll
// interval widens by SlowDownStep, or to after (capped) when that is
// longer, for every poll that follows, and the wait goes on.
func SlowDown(after time.Duration) error { return &slowDown{after: after} }

type slowDown struct{ after time.Duration }

func (e *slowDown) Error() string { return "the server asked for slower polling" }

// Poller paces the polls of an async operation: every Interval (a poll
// answer's Retry-After, capped at Ceiling, overrides the next interval),
// giving up after Timeout. Each poll is a full request of its own, so it
// goes through classification, backoff and the breaker inside fn.
type Poller struct {
	Interval time.Duration
	Timeout  time.Duration
	Ceiling  time.Duration
	Clock    Clock
	// WaitFirst makes the first poll wait one Interval too: a device login
	// is not approved the instant its code is shown, and a server may
	// answer a poll that comes sooner with slow_down.
	WaitFirst bool
}

// NewPoller returns the policy's poller.
func NewPoller(p Policy, clock Clock) Poller {
	p = p.WithDefaults()
	if clock == nil {
		clock = SystemClock()
	}
	return Poller{Interval: p.PollInterval, Timeout: p.PollTimeout, Ceiling: p.MaxDelay, Clock: clock}
}

// lastLookGrace is the least time the poll made at the deadline gets to answer.
const lastLookGrace = time.Second

// PollFunc makes poll number n (from 1). done ends the wait; retryAfter > 0
// sets the delay before the next poll; an error ends the wait with it.
type PollFunc func(ctx context.Context, n int) (done bool, retryAfter time.Duration, err error)

// Run polls until fn is done, fails, ctx ends or the deadline passes
// (a *PollTimeoutError, which is ErrPollTimeout). The first poll is made
// at once. A poll that fails with PollFailed does not end the wait: the
// next one follows after the interval (or its after, when longer), and the
// deadline reports the last such failure.
//
// The deadline also bounds each poll: fn's context ends one Interval after
// it (the grace of the last look, at least lastLookGrace), so a poll that
// retries with backoff or a long Retry-After cannot stretch the wait past
// what the user asked for.
func (p Poller) Run(ctx context.Context, fn PollFunc) error {
	if p.Clock == nil {
		p.Clock = SystemClock()
	}
	deadline := p.Clock.Now().Add(p.Timeout)
	bound := p.Timeout + max(p.Interval, lastLookGrace)
	if bound < p.Timeout {
		bound = p.Timeout // a timeout near forever
	}
	pctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var last error // the last poll's failure, if it failed
	if p.WaitFirst {
		if err := p.Clock.Sleep(ctx, min(p.Interval, p.Timeout)); err != nil {
			return err
		}
	}
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		done, retryAfter, err := fn(pctx, n)
		var slow *slowDown
		if errors.As(err, &slow) {
			// Every poll from now on is slower (RFC 8628 §3.5), not only the next.
			p.Interval = max(p.Interval+SlowDownStep, capAt(slow.after, p.Ceiling))
			err, done, retryAfter = nil, false, 0
		}
		if err != nil && ctx.Err() == nil && errors.Is(pctx.Err(), context.DeadlineExceeded) {
			return &PollTimeoutError{Last: last}
		}
		var failed *pollFailed
		if errors.As(err, &failed) {
			last, err, done, retryAfter = failed.err, nil, false, max(failed.after, p.Interval)
		} else if err == nil {
			last = nil
		}
		if err != nil || done {
			return err
		}
		left := deadline.Sub(p.Clock.Now())
		if left <= 0 {
			return &PollTimeoutError{Last: last}
		}
		next := p.Interval
		if retryAfter > 0 {
			next = capAt(retryAfter, p.Ceiling)
		}
		if next > left {
			next = left // one last look right at the deadline
		}
		if err := p.Clock.Sleep(ctx, next); err != nil {
			return err
		}
	}
}
