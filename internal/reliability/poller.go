package reliability

import (
	"context"
	"errors"
	"time"
)

// ErrPollTimeout means the poll deadline passed while the operation was
// still pending.
var ErrPollTimeout = errors.New("poll deadline passed")

// Poller paces the polls of an async operation: every Interval (a poll
// answer's Retry-After, capped at Ceiling, overrides the next interval),
// giving up after Timeout. Each poll is a full request of its own, so it
// goes through classification, backoff and the breaker inside fn.
type Poller struct {
	Interval time.Duration
	Timeout  time.Duration
	Ceiling  time.Duration
	Clock    Clock
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
// (ErrPollTimeout). The first poll is made at once.
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
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		done, retryAfter, err := fn(pctx, n)
		if err != nil && ctx.Err() == nil && errors.Is(pctx.Err(), context.DeadlineExceeded) {
			return ErrPollTimeout
		}
		if err != nil || done {
			return err
		}
		left := deadline.Sub(p.Clock.Now())
		if left <= 0 {
			return ErrPollTimeout
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
