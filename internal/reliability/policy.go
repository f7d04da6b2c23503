package reliability

import "time"

// NoRetries is the MaxRetries value that disables retries. A zero field means
// "use the default", so the explicit "none" needs its own value.
const NoRetries = -1

// Policy holds every knob of the contract. Zero fields mean the contract
// default (see DefaultPolicy and WithDefaults).
type Policy struct {
	MaxRetries     int           // retries after the first attempt (4 attempts in all)
	BaseDelay      time.Duration // backoff base
	MaxDelay       time.Duration // backoff and Retry-After ceiling
	AttemptTimeout time.Duration // one HTTP attempt
	PollInterval   time.Duration // between polls of an async operation
	PollTimeout    time.Duration // overall wait for an async operation

	BreakerThreshold   int           // consecutive failures that open a breaker
	BreakerOpenTimeout time.Duration // how long an open breaker stays open
	BreakerProbes      int           // requests admitted while half-open
	BreakerSuccesses   int           // successes while half-open that close it

	// RateWaitCeiling bounds how long the rate ledger makes a request wait,
	// so a bogus X-RateLimit-Reset cannot park the CLI for hours.
	RateWaitCeiling time.Duration
	// MarqueeCacheTTL is how long a learned playground→marquee mapping is trusted.
	MarqueeCacheTTL time.Duration

	// BreakerWait is how long a request held back by an open breaker may
	// wait for it instead of failing with CIRCUIT_OPEN (docs/contract.md
	// §6, setting breaker_wait). Zero, the default, fails fast.
	BreakerWait time.Duration
}

// The numbers of the contract, defined here once: DefaultPolicy is made of
// them, and the command line's settings table (internal/config) takes its
// defaults from them.
const (
	DefaultMaxRetries         = 3
	DefaultBaseDelay          = 500 * time.Millisecond
	DefaultMaxDelay           = 30 * time.Second
	DefaultAttemptTimeout     = 30 * time.Second
	DefaultPollInterval       = time.Second
	DefaultPollTimeout        = 5 * time.Minute
	DefaultBreakerThreshold   = 5
	DefaultBreakerOpenTimeout = 30 * time.Second
	DefaultBreakerProbes      = 2
	DefaultBreakerSuccesses   = 2
	DefaultRateWaitCeiling    = 2 * time.Minute
	DefaultMarqueeCacheTTL    = 5 * time.Minute
	DefaultBreakerWait        = time.Duration(0) // fail fast on an open breaker
	MaxBreakerWait            = time.Hour        // the longest breaker_wait accepted

	// SlowDownStep widens a poll interval each time the server asks for
	// slower polling (RFC 8628 §3.5; docs/contract.md §5).
	SlowDownStep = 5 * time.Second
	// DefaultDeviceInterval is the poll interval of a device login when
	// the server gives none (RFC 8628 §3.2), and DeviceMinInterval the
	// least one honoured.
	DefaultDeviceInterval = 5 * time.Second
	DeviceMinInterval     = time.Second
	// DefaultDeviceExpiry is how long a device code lives when the server
	// does not say.
	DefaultDeviceExpiry = 15 * time.Minute

	// DefaultJournalWindow is how long a re-run of a mutation whose outcome
	// is unknown reuses its idempotency key (docs/contract.md §10); it can be at
	// most JournalMaxAge, the server's replay window.
	DefaultJournalWindow = 15 * time.Minute

	// DefaultStoreRetry is how often a process that fell back from a
	// shared state store to its files tries the shared store again
	// (docs/contract.md §6): at most once per interval, so a long-running
	// server (mcp serve, the console, an SDK program) returns to the fleet's
	// state once the store is back, at the cost of one store timeout a minute
	// while it is not.
	DefaultStoreRetry = time.Minute
)

// DefaultPolicy returns the numbers of the contract.
func DefaultPolicy() Policy {
	return Policy{
		MaxRetries:         DefaultMaxRetries,
		BaseDelay:          DefaultBaseDelay,
		MaxDelay:           DefaultMaxDelay,
		AttemptTimeout:     DefaultAttemptTimeout,
		PollInterval:       DefaultPollInterval,
		PollTimeout:        DefaultPollTimeout,
		BreakerThreshold:   DefaultBreakerThreshold,
		BreakerOpenTimeout: DefaultBreakerOpenTimeout,
		BreakerProbes:      DefaultBreakerProbes,
		BreakerSuccesses:   DefaultBreakerSuccesses,
		RateWaitCeiling:    DefaultRateWaitCeiling,
		MarqueeCacheTTL:    DefaultMarqueeCacheTTL,
		BreakerWait:        DefaultBreakerWait,
	}
}

// WithDefaults returns p with every zero field set to its default. It can be
// applied any number of times: NoRetries stays NoRetries (see Retries).
func (p Policy) WithDefaults() Policy {
	d := DefaultPolicy()
	if p.MaxRetries == 0 {
		p.MaxRetries = d.MaxRetries
	}
	setDur(&p.BaseDelay, d.BaseDelay)
	setDur(&p.MaxDelay, d.MaxDelay)
	setDur(&p.AttemptTimeout, d.AttemptTimeout)
	setDur(&p.PollInterval, d.PollInterval)
	setDur(&p.PollTimeout, d.PollTimeout)
	setDur(&p.BreakerOpenTimeout, d.BreakerOpenTimeout)
	setDur(&p.RateWaitCeiling, d.RateWaitCeiling)
	setDur(&p.MarqueeCacheTTL, d.MarqueeCacheTTL)
	setInt(&p.BreakerThreshold, d.BreakerThreshold)
	setInt(&p.BreakerProbes, d.BreakerProbes)
	setInt(&p.BreakerSuccesses, d.BreakerSuccesses)
	return p
}

// Retries is the number of retries after the first attempt (NoRetries → 0).
func (p Policy) Retries() int { return max(p.WithDefaults().MaxRetries, 0) }

// Attempts is the total number of attempts one request may make.
func (p Policy) Attempts() int { return p.Retries() + 1 }

func setDur(v *time.Duration, def time.Duration) {
	if *v <= 0 {
		*v = def
	}
}

func setInt(v *int, def int) {
	if *v <= 0 {
		*v = def
	}
}

// NewDevicePoller paces the polls of a device login (`fibe auth login
// --web`): the interval and lifetime the server gave (seconds; defaults
// when missing), the first poll one interval after the code is shown, and
// SlowDown widening the interval. Retry-After is capped by the policy's
// MaxDelay.
func NewDevicePoller(p Policy, interval, expiresIn int, clock Clock) Poller {
	p = p.WithDefaults()
	if clock == nil {
		clock = SystemClock()
	}
	iv := time.Duration(interval) * time.Second
	if interval <= 0 {
		iv = DefaultDeviceInterval
	}
	life := time.Duration(expiresIn) * time.Second
	if expiresIn <= 0 {
		life = DefaultDeviceExpiry
	}
	return Poller{Interval: max(iv, DeviceMinInterval), Timeout: life, Ceiling: p.MaxDelay, Clock: clock, WaitFirst: true}
}
