package client

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// brownout answers 503 to everything until the fake clock reaches t0+until,
// then names the marquee.
func brownout(t *testing.T, clock *reliabilitytest.Clock, until time.Duration) (string, *recorder) {
	t0 := clock.Now()
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if clock.Now().Before(t0.Add(until)) {
			apiError(w, 503, "INTERNAL_ERROR", "marquee unreachable", nil)
			return
		}
		replyJSON(w, 200, map[string]any{"id": 1, "name": "prod-eu"})
	})
	return srv.URL, rec
}

// With --breaker-wait, a request the breaker stops waits, sending nothing,
// until it half-opens, then probes and goes on.
func TestBreakerWaitRidesOutABrownout(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	url, rec := brownout(t, clock, 25*time.Second)
	c, env := newTestClient(t, url, func(o *Options) {
		o.Clock = clock
		o.Policy.MaxRetries = 10
		o.Policy.BreakerWait = 45 * time.Second
	})
	m, _, err := c.Marquees.Get(ctxT(t), "prod-eu")
	if err != nil || m.Name != "prod-eu" {
		t.Fatalf("Get after the brownout: %v, %v", m, err)
	}
	// Five failures open the breaker; then one probe, nothing in between.
	if rec.count() != 6 {
		t.Fatalf("%d requests, want 6 (5 that open the breaker, 1 probe)", rec.count())
	}
	if !slices.Contains(clock.Sleeps(), 30*time.Second) {
		t.Fatalf("sleeps %v: no wait for the open time", clock.Sleeps())
	}
	waits := env.events.kinds(EventBreakerWait)
	if len(waits) != 1 || waits[0].Resource != "marquee/prod-eu" || waits[0].BreakerState != "open" ||
		waits[0].Delay != 30*time.Second || waits[0].WaitLeft != 45*time.Second {
		t.Fatalf("breaker-wait events %+v", waits)
	}
}

// Without the setting, or when the breaker half-opens after the wait would
// end, the request fails fast with CIRCUIT_OPEN exactly as before.
func TestBreakerWaitFailsFastWhenHalfOpenIsTooFar(t *testing.T) {
	for _, wait := range []time.Duration{0, 10 * time.Second} {
		clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
		url, rec := brownout(t, clock, time.Hour)
		c, env := newTestClient(t, url, func(o *Options) {
			o.Clock = clock
			o.Policy.MaxRetries = 10
			o.Policy.BreakerWait = wait
		})
		_, _, err := c.Marquees.Get(ctxT(t), "prod-eu")
		e := mustError(t, err, CodeCircuitOpen)
		if rec.count() != 5 || e.RetryAfter != 30*time.Second || slices.Contains(clock.Sleeps(), 30*time.Second) {
			t.Fatalf("wait %s: %d requests, %v, sleeps %v", wait, rec.count(), e, clock.Sleeps())
		}
		if n := len(env.events.kinds(EventBreakerWait)); n != 0 {
			t.Fatalf("wait %s: %d breaker-wait events", wait, n)
		}
	}
}

// A probe that fails opens the breaker again: the request keeps waiting
// while its wait allows, one probe per open window, and fails once the
// next half-open lies past it.
func TestBreakerWaitKeepsWaitingWhileItMay(t *testing.T) {
	for _, c := range []struct {
		wait     time.Duration
		requests int
		ok       bool
	}{
		{45 * time.Second, 6, false}, // the probe at +30 s fails; +60 s is past the wait
		{75 * time.Second, 7, true},  // the second probe, at +60 s, succeeds
	} {
		clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
		url, rec := brownout(t, clock, 50*time.Second)
		cl, _ := newTestClient(t, url, func(o *Options) {
			o.Clock = clock
			o.Policy.MaxRetries = 10
			o.Policy.BreakerWait = c.wait
		})
		_, _, err := cl.Marquees.Get(ctxT(t), "prod-eu")
		if (err == nil) != c.ok || rec.count() != c.requests {
			t.Fatalf("wait %s: %d requests, err %v; want %d, ok %v", c.wait, rec.count(), err, c.requests, c.ok)
		}
		if !c.ok {
			mustError(t, err, CodeCircuitOpen)
		}
	}
}

// hookClock runs before on the first Sleep, then sleeps as its clock does.
type hookClock struct {
	*reliabilitytest.Clock
	once   *sync.Once
	before func()
}

func (h hookClock) Sleep(ctx context.Context, d time.Duration) error {
	h.once.Do(h.before)
	return h.Clock.Sleep(ctx, d)
}

// A request that finds both probe slots taken never adds a third probe: it
// waits for their verdict and goes on once they close the breaker.
func TestBreakerWaitWaitsForTheProbesVerdict(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	release := make(chan struct{})
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if clock.Now().Before(time.Unix(1_700_000_000, 0).Add(20 * time.Second)) {
			apiError(w, 503, "INTERNAL_ERROR", "down", nil)
			return
		}
		<-release
		replyJSON(w, 200, map[string]any{"id": 1, "name": "prod-eu"})
	})
	store := reliability.NewMemoryStore()
	prober, _ := newTestClient(t, srv.URL, func(o *Options) { o.Clock = clock; o.Store = store; o.Policy.MaxRetries = 4 })
	_, _, _ = prober.Marquees.Get(ctxT(t), "prod-eu") // its five 503s open the breaker
	opened := rec.count()
	if st := prober.breakers.Status("marquee/prod-eu"); st.State.String() != "open" {
		t.Fatalf("breaker %s after %d failures, want open", st.State, opened)
	}
	clock.Advance(30 * time.Second)

	var probes sync.WaitGroup
	for range 2 {
		probes.Add(1)
		go func() {
			defer probes.Done()
			if _, _, err := prober.Marquees.Get(ctxT(t), "prod-eu"); err != nil {
				t.Errorf("probe: %v", err)
			}
		}()
	}
	waitFor(t, "two probes to arrive", func() bool { return rec.count() == opened+2 })

	// The waiter's first sleep lets the probes answer and waits for them.
	var once sync.Once
	waiterClock := hookClock{Clock: clock, once: &once, before: func() {
		close(release)
		probes.Wait()
	}}
	waiter, env := newTestClient(t, srv.URL, func(o *Options) {
		o.Clock = waiterClock
		o.Store = store
		o.Policy.BreakerWait = 45 * time.Second
	})
	before := len(clock.Sleeps())
	if _, _, err := waiter.Marquees.Get(ctxT(t), "prod-eu"); err != nil {
		t.Fatalf("waiter: %v", err)
	}
	if rec.count() != opened+3 {
		t.Fatalf("%d requests after the breaker opened, want 3 (2 probes, then the waiter once closed)", rec.count()-opened)
	}
	if got := clock.Sleeps()[before:]; !slices.Equal(got, []time.Duration{500 * time.Millisecond}) {
		t.Fatalf("waiter slept %v, want one verdict step of 500ms", got)
	}
	waits := env.events.kinds(EventBreakerWait)
	if len(waits) != 1 || waits[0].BreakerState != "half-open" {
		t.Fatalf("breaker-wait events %+v", waits)
	}
}
