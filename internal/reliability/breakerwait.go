package reliability

import (
	"time"

	"github.com/sony/gobreaker/v2"
)

// BreakerWaitStep decides what a request held back by an open breaker does
// when Policy.BreakerWait allows waiting (docs/contract.md §6, "Waiting out
// an open breaker"). held is Allow's *OpenError, since when this request was
// first held back, now the time of the decision.
//
// It answers how long to wait before asking the breaker again, or ok false
// when the request fails with CIRCUIT_OPEN as it would without the setting:
//
//   - open: wait until it half-opens, when that is within the wait left;
//     then every waiting process competes for a probe slot in the store;
//   - half-open with every probe slot taken: the probes are out, so wait a
//     short step (VerdictPoll) for their verdict and ask again: closed lets
//     the request go on, open again waits again while the wait allows. A
//     process that gets no slot never adds a probe: the store admits at
//     most BreakerProbes.
//
// Nothing is sent while waiting.
func BreakerWaitStep(p Policy, held *OpenError, since, now time.Time) (wait time.Duration, ok bool) {
	if p.BreakerWait <= 0 || held == nil {
		return 0, false
	}
	left := since.Add(p.BreakerWait).Sub(now)
	if left <= 0 {
		return 0, false
	}
	if held.State == gobreaker.StateHalfOpen {
		return min(VerdictPoll(p), left), true
	}
	if held.RetryIn > left {
		return 0, false // it half-opens after the wait would end: fail fast now
	}
	// Never a zero wait: a breaker due to half-open now is asked again
	// after one short step, not in a busy loop.
	return max(held.RetryIn, time.Millisecond), true
}

// VerdictPoll is how often a request waiting on a half-open breaker whose
// probes are out reads it again: a sixtieth of the open time (500 ms with
// the contract's 30 s), between 10 ms and 1 s. A read sends nothing to the
// API; it is one read of the state store.
func VerdictPoll(p Policy) time.Duration {
	d := p.WithDefaults().BreakerOpenTimeout / 60
	return min(max(d, 10*time.Millisecond), time.Second)
}
