package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// arrivals records when each /api request reached the emulator, and when
// the first one was answered.
type arrivals struct {
	mu          sync.Mutex
	at          []time.Time
	firstAnswer time.Time
}

func (a *arrivals) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			h.ServeHTTP(w, r)
			return
		}
		a.mu.Lock()
		a.at = append(a.at, time.Now())
		a.mu.Unlock()
		h.ServeHTTP(w, r)
		a.mu.Lock()
		if a.firstAnswer.IsZero() {
			a.firstAnswer = time.Now()
		}
		a.mu.Unlock()
	})
}

// count returns the arrivals before t (all of them when t is zero) and the
// time of the first answer.
func (a *arrivals) count(before time.Time) (int, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, at := range a.at {
		if before.IsZero() || at.Before(before) {
			n++
		}
	}
	return n, a.firstAnswer
}

// countedWorld is newWorld with every /api arrival recorded.
func countedWorld(t *testing.T, cfg localapi.Config) (*world, *arrivals) {
	t.Helper()
	w := newUser(t)
	srv, err := localapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := &arrivals{}
	ts := httptest.NewServer(a.wrap(srv.Handler()))
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	w.server, w.url, w.key = srv, ts.URL, localapi.DefaultAPIKey
	w.env["FIBE_API_URL"] = w.url
	w.env["FIBE_API_KEY"] = w.key
	return w, a
}

// openBreaker opens marquee/prod-eu of w's API in store until now+d, as
// five failures would with an open time of d.
func openBreaker(t *testing.T, w *world, store reliability.Store, d time.Duration) time.Time {
	t.Helper()
	host := strings.TrimPrefix(w.url, "http://")
	b := reliability.NewBreakers(store, host, reliability.Policy{BreakerOpenTimeout: d}, nil)
	for range 5 {
		tk, err := b.Allow("marquee/prod-eu")
		if err != nil {
			t.Fatal(err)
		}
		tk.Done(reliability.Failure)
	}
	st := b.Status("marquee/prod-eu")
	if st.State.String() != "open" {
		t.Fatalf("breaker %s after five failures", st.State)
	}
	return st.OpenUntil
}

// Several fibe processes with --breaker-wait on one state store (one state
// directory; one Redis for machines with their own): while the breaker is
// open nothing is sent; when it half-opens at most two probes go out
// before the first answer; the waiting processes then proceed, and every
// command succeeds.
func TestBreakerWaitAcrossProcesses(t *testing.T) {
	t.Parallel()
	for _, store := range []string{"state dir", "redis"} {
		t.Run(store, func(t *testing.T) {
			t.Parallel()
			// Every answer takes 1.2 s, so the processes that find both
			// probe slots taken look at the breaker again (every 500 ms)
			// while the probes are still out.
			w, got := countedWorld(t, localapi.Config{Chaos: "latency=1:1200ms"})
			machine := func(i int) *world { return w }
			var s reliability.Store = reliability.NewFileStore(filepath.Join(w.home, "state", "fibe"))
			if store == "redis" {
				srv := redistest.Start(t)
				w.env["FIBE_STATE_STORE"] = srv.URL(0)
				rs, err := statestore.OpenRedis(srv.URL(0), 2*time.Second)
				if err != nil {
					t.Fatal(err)
				}
				s = rs
				machine = w.machine
			}
			// Open long enough that six race-built processes started on a
			// loaded machine all reach the breaker while it is still open.
			until := openBreaker(t, w, s, 10*time.Second)

			const n = 6
			procs := make([]*proc, n)
			for i := range procs {
				procs[i] = machine(i).start("mq", "get", "prod-eu", "--breaker-wait", "30s", "--max-retries", "0")
			}
			alone := 0
			for i, p := range procs {
				r := p.wait(t, 60*time.Second)
				if fellBack(r.stderr) {
					alone++ // a machine that gave up on a slow Redis runs on its own store
					continue
				}
				if r.code != 0 {
					t.Fatalf("process %d: %s", i, r)
				}
				if !strings.Contains(r.stderr, "Circuit breaker for marquee/prod-eu is ") {
					t.Errorf("process %d did not say it waited:\n%s", i, r.stderr)
				}
			}
			if early, _ := got.count(until); early > alone {
				t.Fatalf("%d requests arrived while the breaker was open (%d processes fell back to their own store)", early, alone)
			}
			all, first := got.count(time.Time{})
			if probes, _ := got.count(first); probes-alone > 2 {
				t.Fatalf("%d requests arrived before the first answer, want at most 2 probes (+%d that fell back)", probes, alone)
			}
			if all != n {
				t.Fatalf("%d requests for %d commands, want one each", all, n)
			}
		})
	}
}
