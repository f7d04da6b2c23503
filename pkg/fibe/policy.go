package fibe

import (
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
)

// Policy is the reliability policy (docs/contract.md): retries, backoff,
// timeouts, polling, breakers and rate-limit pacing. A zero field means its
// default (DefaultPolicy).
type Policy struct {
	MaxRetries       int // retries after the first attempt; NoRetries: none
	BreakerThreshold int // consecutive failures that open a breaker
	BreakerProbes    int // requests let through while half-open
	BreakerSuccesses int // successes while half-open that close it

	BaseDelay          time.Duration // the full-jitter backoff's base
	MaxDelay           time.Duration // the backoff's and Retry-After's ceiling
	AttemptTimeout     time.Duration // one HTTP attempt
	PollInterval       time.Duration // between polls of an accepted operation
	PollTimeout        time.Duration // how long an accepted operation is waited on
	BreakerOpenTimeout time.Duration // how long an open breaker stays open
	RateWaitCeiling    time.Duration // the longest wait for the rate-limit window to refill
	// BreakerWait is how long a request an open breaker holds back may
	// wait for it to half-open; 0 fails fast with CIRCUIT_OPEN.
	BreakerWait time.Duration
}

// NoRetries is the MaxRetries of a policy that sends each request once.
const NoRetries = -1

// DefaultPolicy returns the contract's numbers: 3 retries, breakers that
// open after 5 failures for 30 s and close after 2 of 2 probes, a 500 ms
// backoff base capped at 30 s, 30 s per attempt, polls every second for 5
// minutes, rate waits of at most 2 minutes, no breaker wait.
func DefaultPolicy() Policy {
	d := reliability.DefaultPolicy()
	return Policy{MaxRetries: d.MaxRetries, BreakerThreshold: d.BreakerThreshold, BreakerProbes: d.BreakerProbes,
		BreakerSuccesses: d.BreakerSuccesses, BaseDelay: d.BaseDelay, MaxDelay: d.MaxDelay,
		AttemptTimeout: d.AttemptTimeout, PollInterval: d.PollInterval, PollTimeout: d.PollTimeout,
		BreakerOpenTimeout: d.BreakerOpenTimeout, RateWaitCeiling: d.RateWaitCeiling, BreakerWait: d.BreakerWait}
}

// engine is p as the engine's policy; a value that cannot work is
// INVALID_ARGUMENT naming the field.
func (p Policy) engine() (reliability.Policy, error) {
	ints := []struct {
		name string
		v    int
	}{{"policy.breaker_threshold", p.BreakerThreshold}, {"policy.breaker_probes", p.BreakerProbes},
		{"policy.breaker_successes", p.BreakerSuccesses}}
	for _, f := range ints {
		if f.v < 0 {
			return reliability.Policy{}, invalidArgument(f.name, "is negative")
		}
	}
	if p.MaxRetries < NoRetries {
		return reliability.Policy{}, invalidArgument("policy.max_retries", "is below NoRetries")
	}
	durs := []struct {
		name string
		v    time.Duration
	}{{"policy.base_delay", p.BaseDelay}, {"policy.max_delay", p.MaxDelay}, {"policy.attempt_timeout", p.AttemptTimeout},
		{"policy.poll_interval", p.PollInterval}, {"policy.poll_timeout", p.PollTimeout},
		{"policy.breaker_open_timeout", p.BreakerOpenTimeout}, {"policy.rate_wait_ceiling", p.RateWaitCeiling},
		{"policy.breaker_wait", p.BreakerWait}}
	for _, f := range durs {
		if f.v < 0 {
			return reliability.Policy{}, invalidArgument(f.name, "is negative")
		}
	}
	if p.BreakerWait > reliability.MaxBreakerWait {
		return reliability.Policy{}, invalidArgument("policy.breaker_wait", "is longer than "+reliability.MaxBreakerWait.String())
	}
	return reliability.Policy{MaxRetries: p.MaxRetries, BaseDelay: p.BaseDelay, MaxDelay: p.MaxDelay,
		AttemptTimeout: p.AttemptTimeout, PollInterval: p.PollInterval, PollTimeout: p.PollTimeout,
		BreakerThreshold: p.BreakerThreshold, BreakerOpenTimeout: p.BreakerOpenTimeout, BreakerProbes: p.BreakerProbes,
		BreakerSuccesses: p.BreakerSuccesses, RateWaitCeiling: p.RateWaitCeiling, BreakerWait: p.BreakerWait}.WithDefaults(), nil
}

// EventKind says what an Event reports.
type EventKind int

// The kinds of events.
const (
	EventAttempt       EventKind = iota + 1 // an attempt is about to be sent
	EventRetry                              // an attempt failed; another follows after Delay
	EventAccepted                           // the server answered 202
	EventPoll                               // one poll of an accepted operation or a playground's status answered
	EventBreaker                            // a breaker changed state (BreakerState is the new one)
	EventReplay                             // the answer was an idempotent replay
	EventRateWait                           // waiting Delay for the rate-limit window to refill
	EventKeyReuse                           // the journal gave a mutation the key of an unfinished one
	EventStoreFallback                      // the shared state store failed; the local one is used
)

// String names the kind ("retry", "poll", ...).
func (k EventKind) String() string {
	switch k {
	case EventStoreFallback:
		return "store-fallback"
	case EventAttempt, EventRetry, EventAccepted, EventPoll, EventBreaker, EventReplay, EventRateWait, EventKeyReuse:
		return client.EventKind(k).String()
	}
	return "unknown"
}

// Event is one progress report, given to the WithEventHook function.
type Event struct {
	Kind           EventKind
	Method, URL    string
	Attempt, Polls int
	Delay, Elapsed time.Duration
	Reason         string
	RequestID      string
	Status         string // the async status (EventPoll)
	Resource       string
	BreakerState   string
	IdempotencyKey string
}

// eventOf maps an engine event; kinds the public API has no name for are
// not reported.
func eventOf(e client.Event) (Event, bool) {
	if e.Kind < client.EventAttempt || e.Kind > client.EventKeyReuse {
		return Event{}, false
	}
	return Event{Kind: EventKind(e.Kind), Method: e.Method, URL: e.URL, Attempt: e.Attempt, Polls: e.Polls,
		Delay: e.Delay, Elapsed: e.Elapsed, Reason: e.Reason, RequestID: e.RequestID, Status: e.Status,
		Resource: e.Resource, BreakerState: e.BreakerState, IdempotencyKey: e.IdempotencyKey}, true
}
