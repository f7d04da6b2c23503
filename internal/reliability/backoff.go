package reliability

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Rand is the randomness behind jitter; *rand.Rand from math/rand/v2 fits,
// so tests pass a seeded source.
type Rand interface {
	Float64() float64
}

type globalRand struct{}

func (globalRand) Float64() float64 { return rand.Float64() }

// FullJitter is the contract's backoff: the n-th retry (n from 0) waits
// random[0,1) × min(MaxDelay, BaseDelay × 2^n). It is a backoff.BackOff
// and never returns backoff.Stop; wrap it in backoff.WithMaxRetries for a
// budget.
type FullJitter struct {
	Base, Max time.Duration

	mu   sync.Mutex
	n    int
	rand Rand
}

var _ backoff.BackOff = (*FullJitter)(nil)

// NewFullJitter returns the policy's backoff; r nil means a shared
// process-wide source.
func NewFullJitter(p Policy, r Rand) *FullJitter {
	p = p.WithDefaults()
	if r == nil {
		r = globalRand{}
	}
	return &FullJitter{Base: p.BaseDelay, Max: p.MaxDelay, rand: r}
}

// NewBackOff returns FullJitter limited to the policy's retry budget.
func NewBackOff(p Policy, r Rand) backoff.BackOff {
	p = p.WithDefaults()
	return backoff.WithMaxRetries(NewFullJitter(p, r), uint64(p.Retries()))
}

// NextBackOff returns the next delay.
func (b *FullJitter) NextBackOff() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := time.Duration(b.rand.Float64() * float64(JitterCeiling(b.Base, b.Max, b.n)))
	b.n++
	return d
}

// Reset starts the sequence again.
func (b *FullJitter) Reset() {
	b.mu.Lock()
	b.n = 0
	b.mu.Unlock()
}

// JitterCeiling is min(max, base × 2^n), the upper bound of the n-th delay.
func JitterCeiling(base, max time.Duration, n int) time.Duration {
	d := base
	for i := 0; i < n; i++ {
		if d >= max/2 {
			return max
		}
		d *= 2
	}
	if d > max {
		return max
	}
	return d
}
