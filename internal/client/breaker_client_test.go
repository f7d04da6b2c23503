package client

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

func deadMarquee(t *testing.T) (string, *recorder) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		apiError(w, 503, "INTERNAL_ERROR", "marquee unreachable", nil)
	})
	return srv.URL, rec
}

func TestBreakerStopsTheRetryLoopAsSoonAsItOpens(t *testing.T) {
	url, rec := deadMarquee(t)
	c, _ := newTestClient(t, url, func(o *Options) { o.Policy.MaxRetries = 10 })
	_, _, err := c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeCircuitOpen)
	if rec.count() != 5 {
		t.Fatalf("%d requests sent, want 5 (the breaker opens on the 5th failure)", rec.count())
	}
	want := "circuit breaker open for marquee/prod-eu — too many recent failures (retry in 30s)"
	if e.Message != want || e.Resource != "marquee/prod-eu" || !IsCircuitOpen(err) || e.IdempotencyKey == "" {
		t.Fatalf("error %+v", e)
	}
	// Nothing is sent while open, and the time left counts down.
	c.clock.(*reliabilitytest.Clock).Advance(7 * time.Second)
	_, _, err = c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
	e = mustError(t, err, CodeCircuitOpen)
	if rec.count() != 5 || !strings.HasSuffix(e.Message, "(retry in 23s)") || e.RetryAfter != 23*time.Second {
		t.Fatalf("%d requests, %q", rec.count(), e.Message)
	}
}

func TestHalfOpenAdmitsTwoConcurrentProbes(t *testing.T) {
	release := make(chan struct{})
	var healthy atomic.Bool
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if !healthy.Load() {
			apiError(w, 503, "INTERNAL_ERROR", "down", nil)
			return
		}
		<-release
		replyJSON(w, 200, map[string]any{"id": 1, "name": "prod-eu"})
	})
	c, env := newTestClient(t, srv.URL)
	_, _, _ = c.Marquees.Get(ctxT(t), "prod-eu") // its 503s open the breaker
	_, _, err := c.Marquees.Get(ctxT(t), "prod-eu")
	mustError(t, err, CodeCircuitOpen)
	opened := rec.count()
	healthy.Store(true)
	env.clock.Advance(30 * time.Second)

	const callers = 12
	var refused, other atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < callers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := c.Marquees.Get(ctxT(t), "prod-eu")
			switch {
			case IsCircuitOpen(err):
				refused.Add(1)
			case err != nil:
				other.Add(1)
			}
		}()
	}
	waitFor(t, "two probes to arrive", func() bool { return rec.count() == opened+2 })
	// The other callers are refused without sending anything.
	waitFor(t, "the other callers to be refused", func() bool { return refused.Load() == callers-2 })
	close(release)
	wg.Wait()
	if rec.count() != opened+2 || other.Load() != 0 {
		t.Fatalf("%d probes sent, want 2", rec.count()-opened)
	}
	if st, _ := c.Breakers(); len(st) != 1 || st[0].State != "closed" {
		t.Fatalf("after two successful probes: %+v", st)
	}
}

func TestTwoClientsOnOneStateDirShareABreaker(t *testing.T) {
	url, rec := deadMarquee(t)
	dir := t.TempDir()
	a, env := newTestClient(t, url, func(o *Options) { o.StateDir = dir; o.Policy.MaxRetries = 2 })
	b, _ := newTestClient(t, url, func(o *Options) { o.StateDir = dir; o.Clock = env.clock })
	_, _, _ = a.Marquees.Get(ctxT(t), "prod-eu") // 3 failures
	_, _, _ = b.Marquees.Get(ctxT(t), "prod-eu") // 2 more: open
	if rec.count() != 5 {
		t.Fatalf("%d requests", rec.count())
	}
	_, _, err := a.Marquees.Get(ctxT(t), "prod-eu")
	mustError(t, err, CodeCircuitOpen)
	if rec.count() != 5 {
		t.Fatal("a sent a request through b's open breaker")
	}
	st, err := b.Breakers()
	if err != nil || len(st) != 1 || st[0].Resource != "marquee/prod-eu" || st[0].State != "open" || st[0].ConsecutiveFailures != 0 && st[0].OpenUntil.IsZero() {
		t.Fatalf("status %+v %v", st, err)
	}
	info, err := os.Stat(filepath.Join(dir, reliability.SafeName("breakers-"+a.hostKey)+".json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v %v", info, err)
	}
	if err := b.ResetBreakers("marquee/prod-eu"); err != nil {
		t.Fatal(err)
	}
	_, _, _ = a.Marquees.Get(ctxT(t), "prod-eu")
	if rec.count() == 5 {
		t.Fatal("reset did not close the breaker")
	}
}

func TestEightInvocationsAgainstADeadMarqueeSendAtMostSeven(t *testing.T) {
	url, rec := deadMarquee(t)
	dir := t.TempDir()
	var codes []string
	for i := 0; i < 8; i++ {
		// A new client per invocation, on the real clock, as a shell loop would run fibe.
		c, err := New(Options{BaseURL: url, APIKey: testKey, StateDir: dir,
			Policy: reliability.Policy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
		e, ok := AsError(err)
		if !ok {
			t.Fatalf("invocation %d: %v", i+1, err)
		}
		codes = append(codes, e.Code)
	}
	if n := rec.count(); n > 7 {
		t.Fatalf("%d requests across 8 invocations, want at most 7", n)
	}
	// 4 attempts, then the 5th failure opens the breaker; the other six
	// invocations are refused without sending anything.
	want := "INTERNAL_ERROR CIRCUIT_OPEN CIRCUIT_OPEN CIRCUIT_OPEN CIRCUIT_OPEN CIRCUIT_OPEN CIRCUIT_OPEN CIRCUIT_OPEN"
	if got := strings.Join(codes, " "); got != want || rec.count() != 5 {
		t.Fatalf("codes %s after %d requests; want %s after 5", got, rec.count(), want)
	}
}

func TestCorruptStateFileIsReadAsClosed(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { replyJSON(w, 200, map[string]any{"id": 1}) })
	dir := t.TempDir()
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir })
	if err := os.WriteFile(filepath.Join(dir, reliability.SafeName("breakers-"+c.hostKey)+".json"), []byte(`{"api/x": {"state": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Me(ctxT(t)); err != nil || rec.count() != 1 {
		t.Fatalf("corrupt state blocked the request: %v", err)
	}
}
