package statestore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// On a store shared by a fleet every slot of a known window is reserved in
// the store: ten ledgers (ten machines) that all learned the same window
// take exactly its Remaining slots between them, then wait for Reset.
func TestFleetLedgerSharesEverySlot(t *testing.T) {
	srv := redistest.Start(t)
	clock := reliabilitytest.NewClock(start)
	window := reliability.RateLimit{Limit: 100, Remaining: 30, Reset: start.Add(time.Minute)}
	var sent atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		s, err := OpenRedis(srv.URL(0), 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		l := reliability.NewLedger(s, "api.example", reliability.Policy{}, clock)
		if err := l.Observe(window); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				waited := false
				ctx, cancel := context.WithCancel(context.Background())
				cancel() // a wait would return at once: count only sends without one
				err := l.Admit(ctx, func(time.Duration) { waited = true })
				if err == nil && !waited {
					sent.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := sent.Load(); n != 30 {
		t.Fatalf("%d requests sent in a window of 30", n)
	}
}
