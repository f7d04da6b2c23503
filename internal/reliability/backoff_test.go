package reliability

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
)

func TestFullJitterBoundsOverManySeededDraws(t *testing.T) {
	p := DefaultPolicy()
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 12; n++ {
		ceiling := JitterCeiling(p.BaseDelay, p.MaxDelay, n)
		want := p.BaseDelay << n
		if want > p.MaxDelay || want <= 0 {
			want = p.MaxDelay
		}
		if ceiling != want {
			t.Fatalf("ceiling(%d) = %v, want %v", n, ceiling, want)
		}
		lo, hi := ceiling, time.Duration(0)
		for i := 0; i < 2000; i++ {
			b := &FullJitter{Base: p.BaseDelay, Max: p.MaxDelay, rand: r, n: n}
			d := b.NextBackOff()
			if d < 0 || d >= ceiling {
				t.Fatalf("draw %v outside [0, %v) for retry %d", d, ceiling, n)
			}
			lo, hi = min(lo, d), max(hi, d)
		}
		// Full jitter spreads over the whole range, not around a centre.
		if lo > ceiling/20 || hi < ceiling*19/20 {
			t.Fatalf("retry %d: draws span [%v, %v] of [0, %v): not full jitter", n, lo, hi, ceiling)
		}
	}
}

func TestFullJitterIsDeterministicForASeed(t *testing.T) {
	seq := func() []time.Duration {
		b := NewFullJitter(DefaultPolicy(), rand.New(rand.NewPCG(7, 7)))
		var out []time.Duration
		for i := 0; i < 6; i++ {
			out = append(out, b.NextBackOff())
		}
		return out
	}
	a, b := seq(), seq()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed gave %v and %v", a, b)
		}
	}
}

func TestNewBackOffStopsAfterTheBudget(t *testing.T) {
	b := NewBackOff(Policy{}, rand.New(rand.NewPCG(1, 1)))
	for i := 0; i < 3; i++ {
		if d := b.NextBackOff(); d == backoff.Stop {
			t.Fatalf("stopped after %d retries, want 3", i)
		}
	}
	if d := b.NextBackOff(); d != backoff.Stop {
		t.Fatalf("4th retry got %v, want Stop", d)
	}
	if d := NewBackOff(Policy{MaxRetries: NoRetries}, nil).NextBackOff(); d != backoff.Stop {
		t.Fatalf("NoRetries: first NextBackOff = %v, want Stop", d)
	}
}
