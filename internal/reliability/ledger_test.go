package reliability

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// writeCounter is Records that count the writes that reach the ones they
// wrap (an Update whose result differs from what was there).
type writeCounter struct {
	Records
	writes atomic.Int64
}

// countingStore is a LocalStore over r whose writes are counted.
func countingStore(r Records) (*LocalStore, *writeCounter) {
	w := &writeCounter{Records: r}
	return newLocalStore(w, "counted"), w
}

func (w *writeCounter) Update(key string, fn func([]byte) ([]byte, error)) error {
	return w.Records.Update(key, func(old []byte) ([]byte, error) {
		next, err := fn(old)
		if err == nil && next != nil && !bytes.Equal(next, old) {
			w.writes.Add(1)
		}
		return next, err
	})
}

func newTestLedger(store Store) (*Ledger, *reliabilitytest.Clock) {
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	return NewLedger(store, "api.example", Policy{}, clock), clock
}

// admitNow takes a slot if one is free without waiting; it reports whether
// it did.
func admitNow(l *Ledger) bool { return l.reserve(false) == 0 }

// Each admission takes a slot of the window: with Remaining slots left, that
// many requests go and the next one waits for Reset, before any of their
// answers arrived.
func TestLedgerReservesASlotPerRequest(t *testing.T) {
	l, clock := newTestLedger(NewMemoryStore())
	reset := clock.Now().Add(2 * time.Second)
	if err := l.Observe(RateLimit{Limit: 50, Remaining: 20, Reset: reset}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if !admitNow(l) {
			t.Fatalf("request %d of 20 refused", i+1)
		}
	}
	if d := l.reserve(false); d != 2*time.Second {
		t.Fatalf("21st request waits %v, want until Reset (2s)", d)
	}
	if d := l.Wait(); d != 2*time.Second {
		t.Fatalf("Wait %v", d)
	}
}

// Concurrent goroutines never take more slots than the window has.
func TestLedgerConcurrentAdmissionsStayWithinTheWindow(t *testing.T) {
	l, clock := newTestLedger(NewFileStore(t.TempDir()))
	if err := l.Observe(RateLimit{Limit: 100, Remaining: 37, Reset: clock.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if admitNow(l) {
					admitted.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := admitted.Load(); n != 37 {
		t.Fatalf("admitted %d, want exactly the 37 slots left", n)
	}
}

// Answers are folded in with the most conservative view: for the same
// window the smaller Remaining wins, a window that has ended is ignored, and
// a new window counts the requests already sent into it.
func TestLedgerReconcilesAnswersConservatively(t *testing.T) {
	l, clock := newTestLedger(NewMemoryStore())
	reset := clock.Now().Add(10 * time.Second)
	_ = l.Observe(RateLimit{Limit: 50, Remaining: 30, Reset: reset})
	for i := 0; i < 5; i++ {
		admitNow(l)
	}
	// An answer that predates those five says more is left: not believed.
	_ = l.Observe(RateLimit{Limit: 50, Remaining: 29, Reset: reset})
	if rl, _ := l.Last(); rl.Remaining != 25 {
		t.Fatalf("remaining %d after a stale higher count, want 25", rl.Remaining)
	}
	// Another client spent some: the lower count wins.
	_ = l.Observe(RateLimit{Limit: 50, Remaining: 12, Reset: reset})
	if rl, _ := l.Last(); rl.Remaining != 12 {
		t.Fatalf("remaining %d, want 12", rl.Remaining)
	}
	// An answer about a window that has already ended changes nothing.
	_ = l.Observe(RateLimit{Limit: 50, Remaining: 0, Reset: clock.Now()})
	if rl, _ := l.Last(); rl.Remaining != 12 {
		t.Fatalf("remaining %d after an ended window's answer", rl.Remaining)
	}

	// The window ends; eight requests go before the new window is known.
	clock.Advance(10 * time.Second)
	for i := 0; i < 8; i++ {
		if !admitNow(l) {
			t.Fatalf("request %d into the new window refused", i+1)
		}
	}
	// The first answer counted only its own request: the seven others in
	// flight are counted anyway.
	_ = l.Observe(RateLimit{Limit: 50, Remaining: 49, Reset: clock.Now().Add(2 * time.Second)})
	if rl, _ := l.Last(); rl.Remaining != 42 {
		t.Fatalf("remaining %d in the new window, want 50 - 8 = 42", rl.Remaining)
	}
}

// Admit waits until Reset when the window is spent, then goes on in the
// next window; it tells onWait first.
func TestLedgerAdmitWaitsUntilResetThenResumes(t *testing.T) {
	l, clock := newTestLedger(NewMemoryStore())
	reset := clock.Now().Add(1500 * time.Millisecond)
	_ = l.Observe(RateLimit{Limit: 2, Remaining: 1, Reset: reset})
	var told []time.Duration
	onWait := func(d time.Duration) { told = append(told, d) }
	if err := l.Admit(context.Background(), onWait); err != nil || len(told) != 0 {
		t.Fatalf("first admission: %v, waited %v", err, told)
	}
	if err := l.Admit(context.Background(), onWait); err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0] != 1500*time.Millisecond || !clock.Now().Equal(reset) {
		t.Fatalf("waited %v, now %v; want one wait of 1.5s ending at Reset", told, clock.Now())
	}
	if s := clock.Sleeps(); len(s) != 1 || s[0] != 1500*time.Millisecond {
		t.Fatalf("slept %v", s)
	}
	// Cancelled while waiting: the context's error, no slot.
	_ = l.Observe(RateLimit{Limit: 2, Remaining: 0, Reset: clock.Now().Add(time.Second)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Admit(ctx, nil); err == nil {
		t.Fatal("cancelled Admit returned nil")
	}
}

// A Reset far ahead parks a request for at most the ceiling in all.
func TestLedgerAdmitWaitsAtMostTheCeiling(t *testing.T) {
	l, clock := newTestLedger(NewMemoryStore())
	_ = l.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: clock.Now().Add(24 * time.Hour)})
	if err := l.Admit(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var total time.Duration
	for _, d := range clock.Sleeps() {
		total += d
	}
	if total != DefaultPolicy().RateWaitCeiling {
		t.Fatalf("waited %v, want the ceiling %v", total, DefaultPolicy().RateWaitCeiling)
	}
}

// The stored view is written when a new window is seen and for the last
// slots of a window, not for every request.
func TestLedgerWritesOnlyWhenItMatters(t *testing.T) {
	local, store := countingStore(NewFileStore(t.TempDir()))
	l, clock := newTestLedger(local)
	reset := clock.Now().Add(time.Minute)
	remaining := 100
	for remaining > 20 { // well above the low water mark (10)
		if !admitNow(l) {
			t.Fatal("refused with slots left")
		}
		remaining--
		_ = l.Observe(RateLimit{Limit: 100, Remaining: remaining, Reset: reset})
	}
	if n := store.writes.Load(); n != 1 {
		t.Fatalf("%d writes for 80 requests in one window, want 1 (the new window)", n)
	}
	for admitNow(l) {
	}
	if n := store.writes.Load(); n < 2 || n > 12 {
		t.Fatalf("%d writes after spending the window, want the last slots' (at most 11) and the window", n)
	}
	// The next invocation knows the window is spent.
	next := NewLedger(local, "api.example", Policy{}, clock)
	if d := next.Wait(); d != time.Minute {
		t.Fatalf("next invocation waits %v, want 1m", d)
	}
}

// Two ledgers on one state directory (two processes) split a window's last
// slots: together they take no more than are left.
func TestLedgersOnOneStateDirShareTheLastSlots(t *testing.T) {
	dir := t.TempDir()
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	a := NewLedger(NewFileStore(dir), "api.example", Policy{}, clock)
	b := NewLedger(NewFileStore(dir), "api.example", Policy{}, clock)
	rl := RateLimit{Limit: 50, Remaining: 4, Reset: clock.Now().Add(time.Minute)}
	_ = a.Observe(rl)
	_ = b.Observe(rl)
	taken := 0
	for i := 0; i < 4; i++ {
		for _, l := range []*Ledger{a, b} {
			if admitNow(l) {
				taken++
			}
		}
	}
	if taken != 4 {
		t.Fatalf("two processes took %d of the last 4 slots", taken)
	}
}

// After a 429's Retry-After, the window it was about is settled: the next
// admission takes no second wait for it, but a later window known to be
// spent is still waited for.
func TestLedgerAdmitAfterA429SettlesOnlyThatWindow(t *testing.T) {
	l, clock := newTestLedger(NewMemoryStore())
	window := clock.Now().Add(60 * time.Second)
	if err := l.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: window}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Second) // the Retry-After
	if err := l.AdmitAfter(context.Background(), window, nil); err != nil || len(clock.Sleeps()) != 0 {
		t.Fatalf("waited %v (%v) after the Retry-After", clock.Sleeps(), err)
	}
	later := window.Add(60 * time.Second)
	if err := l.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: later}); err != nil {
		t.Fatal(err)
	}
	if err := l.AdmitAfter(context.Background(), window, nil); err != nil || len(clock.Sleeps()) != 1 {
		t.Fatalf("sleeps %v (%v): a later spent window must be waited for", clock.Sleeps(), err)
	}
}

// The scope names the origin and a hash of the key, never the key.
func TestLedgerScopeHashesTheKey(t *testing.T) {
	a, b := LedgerScope("https://fibe.gg:443", "fibe_secret_1"), LedgerScope("https://fibe.gg:443", "fibe_secret_2")
	if a == b || !strings.HasPrefix(a, "https://fibe.gg:443-") || strings.Contains(a, "secret") {
		t.Fatalf("scopes %q %q", a, b)
	}
	if LedgerScope("https://fibe.gg:443", "fibe_secret_1") != a || LedgerScope("http://127.0.0.1:80", "fibe_secret_1") == a {
		t.Fatal("scope is not a function of origin and key")
	}
}

// One answer with X-RateLimit-Reset in year 5138 made every later command
// wait the 2-minute ceiling, forever. A Reset beyond MaxRateReset or in the
// past is ignored; the next answer's window replaces an earlier answer's,
// even an earlier window; a stored bogus view is no view; Reset forgets.
func TestLedgerIgnoresImplausibleResetsAndLaterAnswersReplace(t *testing.T) {
	store := NewFileStore(t.TempDir())
	l, clock := newTestLedger(store)
	now := clock.Now()
	for _, rl := range []RateLimit{
		{Limit: 10, Remaining: 0, Reset: time.Unix(99999999999, 0)},
		{Limit: 10, Remaining: 0, Reset: now.Add(MaxRateReset + time.Second)},
		{Limit: 10, Remaining: 0, Reset: now.Add(-time.Second)},
	} {
		if err := l.Observe(rl); err != nil {
			t.Fatal(err)
		}
		if w := l.Wait(); w != 0 {
			t.Fatalf("after %v the next request waits %v", rl.Reset, w)
		}
	}
	// An older version stored the bogus window: a new invocation ignores it.
	if err := store.Update(l.Key(), func([]byte) ([]byte, error) {
		return []byte(`{"limit":10,"remaining":0,"reset":"5138-11-16T09:46:39Z"}`), nil
	}); err != nil {
		t.Fatal(err)
	}
	fresh := NewLedger(store, "api.example", Policy{}, clock)
	if err := fresh.Admit(context.Background(), nil); err != nil || len(clock.Sleeps()) != 0 {
		t.Fatalf("admitted after %v (%v)", clock.Sleeps(), err)
	}
	// A plausible but long window, spent; then a healthy answer about an
	// earlier window: the later answer wins.
	_ = l.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: now.Add(20 * time.Hour)})
	if w := l.Wait(); w != DefaultRateWaitCeiling {
		t.Fatalf("a spent window: wait %v", w)
	}
	_ = l.Observe(RateLimit{Limit: 10, Remaining: 5, Reset: now.Add(time.Minute)})
	if w := l.Wait(); w != 0 {
		t.Fatalf("the later answer did not replace the earlier one: wait %v", w)
	}
	if got, _ := store.LedgerLoad(l.Key()); !got.Reset.Equal(now.Add(time.Minute)) {
		t.Fatalf("stored %+v", got)
	}
	_ = l.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: now.Add(time.Hour)})
	if err := l.Reset(); err != nil {
		t.Fatal(err)
	}
	if w := l.Wait(); w != 0 {
		t.Fatalf("after Reset: wait %v", w)
	}
	if got, _ := store.LedgerLoad(l.Key()); !got.Reset.IsZero() {
		t.Fatalf("after Reset the store holds %+v", got)
	}
}
