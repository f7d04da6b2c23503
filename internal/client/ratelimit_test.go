package client

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

func TestRateLedgerMakesTheNextInvocationWait(t *testing.T) {
	var clockNow atomic.Int64
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		now := time.Unix(clockNow.Load(), 0)
		w.Header().Set("X-RateLimit-Limit", "600")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(20*time.Second).Unix(), 10))
		replyJSON(w, 200, map[string]any{"id": 1})
	})
	dir := t.TempDir()
	first, env := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir })
	clockNow.Store(env.clock.Now().Unix())
	_, meta, err := first.Me(ctxT(t))
	if err != nil || meta.RateLimit == nil || meta.RateLimit.Remaining != 0 || meta.RateLimit.Limit != 600 {
		t.Fatalf("%+v %v", meta, err)
	}
	if len(env.clock.Sleeps()) != 0 {
		t.Fatal("first request waited")
	}
	// A new invocation on the same state dir waits for the reset before sending.
	next, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir; o.Clock = env.clock; o.OnEvent = env.events.add })
	if _, _, err := next.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 1 || sleeps[0] != 20*time.Second || len(env.events.kinds(EventRateWait)) != 1 || rec.count() != 2 {
		t.Fatalf("sleeps %v, %d requests", sleeps, rec.count())
	}
}

// Goroutines sharing one client never send more than the window allows:
// the ledger counts requests in flight, not only answers. The emulator
// refuses every request over its limit with a 429, counted on its side.
func TestConcurrentRequestsStayWithinTheRateLimit(t *testing.T) {
	const limit, workers, total = 6, 4, 18
	s, url := emulator(t, localapi.Config{RateLimit: limit, RateWindow: time.Second})
	var waits atomic.Int64
	c := emulatorClient(t, url, func(o *Options) {
		o.StateDir = t.TempDir()
		o.OnEvent = func(e Event) {
			if e.Kind == EventRateWait {
				waits.Add(1)
			}
		}
	})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= total {
				if _, _, err := c.Me(ctxT(t)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	got := s.Stats().Requests["GET /api/me"]
	if got["429"] != 0 || got["200"] != total {
		t.Fatalf("server saw %v, want %d × 200 and no 429", got, total)
	}
	// 18 requests at 6 a window span at least three windows: the ledger
	// must have made the workers wait.
	if waits.Load() == 0 {
		t.Fatal("no worker waited for a window to refill")
	}
}

// Once a window is spent the ledger waits exactly until its Reset (the
// emulator aligns windows on the clock, so Reset is the true end) and then
// goes on in the next window without earning a 429.
func TestLedgerWaitsUntilResetThenResumes(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_004, 0)) // 4 s into a 10 s window
	s, url := emulator(t, localapi.Config{RateLimit: 3, RateWindow: 10 * time.Second, Now: clock.Now})
	c, _ := newTestClient(t, url, func(o *Options) { o.APIKey = localapi.DefaultAPIKey; o.Clock = clock; o.StateDir = t.TempDir() })
	for i := 0; i < 7; i++ {
		if _, _, err := c.Me(ctxT(t)); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	sleeps := clock.Sleeps()
	if len(sleeps) != 2 || sleeps[0] != 6*time.Second || sleeps[1] != 10*time.Second {
		t.Fatalf("slept %v, want [6s 10s]: until the end of the first window, then one whole window", sleeps)
	}
	if got := s.Stats().Requests["GET /api/me"]; got["429"] != 0 || got["200"] != 7 {
		t.Fatalf("server saw %v", got)
	}
}
