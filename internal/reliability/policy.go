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
}

// DefaultPolicy returns the numbers of the contract.
func DefaultPolicy() Policy {
	return Policy{
		MaxRetries:         3,
		BaseDelay:          500 * time.Millisecond,
		MaxDelay:           30 * time.Second,
		AttemptTimeout:     30 * time.Second,
		PollInterval:       time.Second,
		PollTimeout:        5 * time.Minute,
		BreakerThreshold:   5,
		BreakerOpenTimeout: 30 * time.Second,
		BreakerProbes:      2,
		BreakerSuccesses:   2,
		RateWaitCeiling:    2 * time.Minute,
		MarqueeCacheTTL:    5 * time.Minute,
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
