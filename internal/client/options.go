package client

import (
	"io"
	"net/http"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// Options configure a Client.
type Options struct {
	BaseURL      string            // e.g. https://fibe.gg or http://127.0.0.1:7878
	APIKey       string            // sent as a bearer token to trusted origins only
	Transport    http.RoundTripper // nil → a clone of http.DefaultTransport
	UserAgent    string            // "fibe-cli/<version> (<os>/<arch>)"
	StateDir     string            // breakers, rate ledger, marquee cache; "" → in memory
	Policy       reliability.Policy
	TrustedHosts []string    // extra hosts that may receive the API key
	OnEvent      func(Event) // progress callback
	Debug        io.Writer   // redacted HTTP trace when non-nil

	// Clock and Rand make timing testable; nil → real time and a shared source.
	Clock reliability.Clock
	Rand  reliability.Rand
	// Store overrides the state store (e.g. a shared one); nil → a FileStore
	// in StateDir, or memory when StateDir is "".
	Store reliability.Store

	// Profile and JournalWindow drive the outcome journal (docs/contract.md §10): a
	// mutation sent again within the window, same profile, reuses the key
	// of the run that lost its answer. A zero window turns the journal off.
	Profile       string
	JournalWindow time.Duration
}

// EventKind says what an Event reports.
type EventKind int

const (
	EventAttempt  EventKind = iota + 1 // an attempt is about to be sent
	EventRetry                         // an attempt failed and another follows after Delay
	EventAccepted                      // the server answered 202
	EventPoll                          // one poll of an async operation answered
	EventBreaker                       // a breaker changed state
	EventReplay                        // the answer was an idempotent replay
	EventRateWait                      // waiting for the rate-limit window to refill
	EventKeyReuse                      // the journal gave a mutation the key of an unfinished run
	// EventBreakerWait is an open breaker holding the request back while it
	// waits (Policy.BreakerWait): Resource, BreakerState ("open": Delay until it
	// half-opens; "half-open": its probes are out), WaitLeft.
	EventBreakerWait
)

func (k EventKind) String() string {
	switch k {
	case EventAttempt:
		return "attempt"
	case EventRetry:
		return "retry"
	case EventAccepted:
		return "accepted"
	case EventPoll:
		return "poll"
	case EventBreaker:
		return "breaker"
	case EventReplay:
		return "replay"
	case EventRateWait:
		return "rate-wait"
	case EventKeyReuse:
		return "key-reused"
	case EventBreakerWait:
		return "breaker-wait"
	}
	return "unknown"
}

// Event is one progress report; the CLI renders it (spinner, notices).
type Event struct {
	Kind         EventKind
	Method, URL  string
	Attempt      int
	Delay        time.Duration
	Reason       string
	RequestID    string
	Status       string // async status for EventPoll
	Polls        int
	Elapsed      time.Duration
	Resource     string
	BreakerState string
	WaitLeft     time.Duration // EventBreakerWait: what is left of the breaker wait

	// EventKeyReuse: the key reused, what the unfinished run was and when
	// it started.
	IdempotencyKey string
	Label          string
	Started        time.Time
}

// MutationOptions are per-call knobs of a mutation.
type MutationOptions struct {
	IdempotencyKey string // "" → minted by the client, once for the operation
	NewKey         bool   // do not reuse a journaled key (docs/contract.md §10)
	// KeepJournaled keeps the journal entry of a mutation that succeeded:
	// the caller goes on to wait for its effect (a create, then its
	// playground running) and removes the entry with ForgetJournaled once
	// that wait ends, so a re-run of a wait handed off replays the mutation.
	KeepJournaled bool
	// OnEvent, when set, receives the events of this mutation only, besides
	// Options.OnEvent: a journaled key reused, each attempt and retry, a
	// replay, the 202 with its request id, and each poll of the operation
	// with its status. A door that runs several operations at once (the
	// console) gives each its own, instead of telling them apart by URL.
	OnEvent func(Event)
}

// WaitOptions are per-call knobs of an async operation.
type WaitOptions struct {
	NoWait       bool          // return the 202 handle instead of waiting
	Timeout      time.Duration // zero → policy PollTimeout
	PollInterval time.Duration // zero → policy PollInterval
}
