package reliability

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

const res = "marquee/prod-eu"

func newTestBreakers(t *testing.T, store Store) (*Breakers, *reliabilitytest.Clock) {
	t.Helper()
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	return NewBreakers(store, "api.example", Policy{}, clock), clock
}

func fail(t *testing.T, b *Breakers, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		tk, err := b.Allow(res)
		if err != nil {
			t.Fatalf("failure %d not admitted: %v", i+1, err)
		}
		tk.Done(Failure)
	}
}

func TestBreakerTripsAtExactlyFiveConsecutiveFailures(t *testing.T) {
	b, _ := newTestBreakers(t, NewMemoryStore())
	fail(t, b, 4)
	if s := b.Status(res); s.State != gobreaker.StateClosed || s.ConsecutiveFailures != 4 {
		t.Fatalf("after 4 failures: %+v", s)
	}
	// A success in between resets the run.
	tk, _ := b.Allow(res)
	tk.Done(Success)
	fail(t, b, 4)
	if b.Status(res).State != gobreaker.StateClosed {
		t.Fatal("opened on 4 consecutive failures after a success")
	}
	tk, _ = b.Allow(res)
	if st := tk.Done(Failure); st != gobreaker.StateOpen {
		t.Fatalf("5th consecutive failure left state %v, want open", st)
	}
	_, err := b.Allow(res)
	var oe *OpenError
	if !errors.As(err, &oe) || !errors.Is(err, gobreaker.ErrOpenState) {
		t.Fatalf("Allow on open breaker: %v", err)
	}
	if oe.RetryIn != 30*time.Second || oe.Resource != res {
		t.Fatalf("open error %+v", oe)
	}
	want := "circuit breaker open for marquee/prod-eu — too many recent failures (retry in 30s)"
	if err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
	if readyToTrip(5)(gobreaker.Counts{ConsecutiveFailures: 4}) || !readyToTrip(5)(gobreaker.Counts{ConsecutiveFailures: 5}) {
		t.Fatal("ReadyToTrip is not >= threshold")
	}
}

func TestBreakerIgnoresNeitherOutcomes(t *testing.T) {
	b, _ := newTestBreakers(t, NewMemoryStore())
	fail(t, b, 4)
	for i := 0; i < 10; i++ { // 4xx and 429 count as neither
		tk, _ := b.Allow(res)
		tk.Done(Ignored)
	}
	if s := b.Status(res); s.State != gobreaker.StateClosed || s.ConsecutiveFailures != 4 {
		t.Fatalf("ignored outcomes changed the breaker: %+v", s)
	}
}

func TestBreakerHalfOpenAdmitsTwoProbesUnderConcurrency(t *testing.T) {
	b, clock := newTestBreakers(t, NewFileStore(t.TempDir()))
	fail(t, b, 5)
	clock.Advance(29 * time.Second)
	if _, err := b.Allow(res); err == nil {
		t.Fatal("admitted before the open time passed")
	}
	clock.Advance(time.Second)

	var admitted atomic.Int32
	var tickets sync.Map
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			if tk, err := b.Allow(res); err == nil {
				admitted.Add(1)
				tickets.Store(i, tk)
			} else if !errors.Is(err, gobreaker.ErrTooManyRequests) {
				t.Errorf("unexpected refusal: %v", err)
			}
		}(i)
	}
	close(start)
	wg.Wait()
	if n := admitted.Load(); n != 2 {
		t.Fatalf("half-open admitted %d probes, want 2", n)
	}
	var probes []*Ticket
	tickets.Range(func(_, v any) bool { probes = append(probes, v.(*Ticket)); return true })
	if st := probes[0].Done(Success); st != gobreaker.StateHalfOpen {
		t.Fatalf("after one probe success: %v", st)
	}
	if st := probes[1].Done(Success); st != gobreaker.StateClosed {
		t.Fatalf("after two probe successes: %v, want closed", st)
	}
}

func TestBreakerOneHalfOpenFailureReopens(t *testing.T) {
	b, clock := newTestBreakers(t, NewMemoryStore())
	fail(t, b, 5)
	clock.Advance(30 * time.Second)
	p1, err := b.Allow(res)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := b.Allow(res)
	if err != nil {
		t.Fatal(err)
	}
	if st := p1.Done(Failure); st != gobreaker.StateOpen {
		t.Fatalf("half-open failure left %v, want open", st)
	}
	// The other probe's late success belongs to an older generation and is dropped.
	if st := p2.Done(Success); st != gobreaker.StateOpen {
		t.Fatalf("stale success moved the breaker to %v", st)
	}
	if _, err := b.Allow(res); !errors.Is(err, gobreaker.ErrOpenState) {
		t.Fatalf("want open again, got %v", err)
	}
}

func TestBreakerStateChangesAreReported(t *testing.T) {
	b, clock := newTestBreakers(t, NewMemoryStore())
	var moves []string
	b.OnStateChange = func(r string, from, to gobreaker.State) { moves = append(moves, r+":"+from.String()+">"+to.String()) }
	fail(t, b, 5)
	clock.Advance(30 * time.Second)
	tk, _ := b.Allow(res)
	tk.Done(Success)
	tk, _ = b.Allow(res)
	tk.Done(Success)
	want := "marquee/prod-eu:closed>open marquee/prod-eu:open>half-open marquee/prod-eu:half-open>closed"
	if got := strings.Join(moves, " "); got != want {
		t.Fatalf("moves %q, want %q", got, want)
	}
}

func TestBreakersOnOneStateDirAreOneBreaker(t *testing.T) {
	dir := t.TempDir()
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	a := NewBreakers(NewFileStore(dir), "api.example", Policy{}, clock)
	b := NewBreakers(NewFileStore(dir), "api.example", Policy{}, clock)
	other := NewBreakers(NewFileStore(dir), "other.example", Policy{}, clock)
	for i := 0; i < 5; i++ {
		x := a
		if i%2 == 1 {
			x = b
		}
		tk, err := x.Allow(res)
		if err != nil {
			t.Fatal(err)
		}
		tk.Done(Failure)
	}
	if _, err := b.Allow(res); err == nil {
		t.Fatal("b does not see the breaker a and b opened together")
	}
	if _, err := a.Allow("marquee/other"); err != nil {
		t.Fatalf("another resource is affected: %v", err)
	}
	if _, err := other.Allow(res); err != nil {
		t.Fatalf("another API host is affected: %v", err)
	}
	info, err := os.Stat(filepath.Join(dir, "breakers-api.example.json"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v, want 0600", info.Mode().Perm())
	}
	if err := a.Reset(res); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Allow(res); err != nil {
		t.Fatalf("after reset: %v", err)
	}
}

func TestCorruptStateFileReadsAsClosed(t *testing.T) {
	dir := t.TempDir()
	for _, junk := range []string{"{not json", `{"marquee/prod-eu": {"state": 7}}`, "\x00\x01", `[]`} {
		if err := os.WriteFile(filepath.Join(dir, "breakers-api.example.json"), []byte(junk), 0o600); err != nil {
			t.Fatal(err)
		}
		b, _ := newTestBreakers(t, NewFileStore(dir))
		if s := b.Status(res); s.State != gobreaker.StateClosed {
			t.Fatalf("%q: state %v", junk, s.State)
		}
		tk, err := b.Allow(res)
		if err != nil {
			t.Fatalf("%q: not admitted: %v", junk, err)
		}
		tk.Done(Failure) // and the file is rewritten sane
		if s := b.Status(res); s.ConsecutiveFailures != 1 {
			t.Fatalf("%q: after rewrite %+v", junk, s)
		}
		_ = b.Reset("")
	}
}

// A probe whose process died never reports; its slot is freed after a lease.
func TestHalfOpenProbeLeaseExpires(t *testing.T) {
	b, clock := newTestBreakers(t, NewMemoryStore())
	fail(t, b, 5)
	clock.Advance(30 * time.Second)
	for i := 0; i < 2; i++ {
		if _, err := b.Allow(res); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Allow(res); err == nil {
		t.Fatal("third probe admitted")
	}
	clock.Advance(2*DefaultPolicy().AttemptTimeout + time.Second)
	if _, err := b.Allow(res); err != nil {
		t.Fatalf("abandoned probes still hold their slots: %v", err)
	}
}

// A closed breaker with no failures writes nothing: admissions and
// successes are decided on a read. Failures, and the success that ends a
// run of them, are written.
func TestClosedBreakerWritesOnlyFailures(t *testing.T) {
	local, store := countingStore(NewFileStore(t.TempDir()))
	b, _ := newTestBreakers(t, local)
	for i := 0; i < 50; i++ {
		tk, err := b.Allow(res)
		if err != nil {
			t.Fatal(err)
		}
		tk.Done([]Outcome{Success, Ignored}[i%2])
	}
	if n := store.writes.Load(); n != 0 {
		t.Fatalf("%d writes for admissions and successes of a closed breaker", n)
	}
	fail(t, b, 2)
	if n := store.writes.Load(); n != 2 {
		t.Fatalf("%d writes for 2 failures, want 2", n)
	}
	tk, _ := b.Allow(res)
	tk.Done(Success) // ends the run: written
	if s := b.Status(res); s.ConsecutiveFailures != 0 || store.writes.Load() != 3 {
		t.Fatalf("after a success: %+v, %d writes", s, store.writes.Load())
	}
	// Back to closed with no failures: quiet again.
	tk, _ = b.Allow(res)
	tk.Done(Success)
	if n := store.writes.Load(); n != 3 {
		t.Fatalf("%d writes, want 3", n)
	}
}

// A failure recorded by another process between this attempt's admission
// and its success is reset by that success, as if both held the lock.
func TestSuccessResetsAFailureRunRecordedElsewhere(t *testing.T) {
	dir := t.TempDir()
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	mine := NewBreakers(NewFileStore(dir), "api.example", Policy{}, clock)
	other := NewBreakers(NewFileStore(dir), "api.example", Policy{}, clock)
	tk, err := mine.Allow(res)
	if err != nil {
		t.Fatal(err)
	}
	fail(t, other, 4)
	tk.Done(Success)
	if s := other.Status(res); s.ConsecutiveFailures != 0 {
		t.Fatalf("the success did not end the run: %+v", s)
	}
	fail(t, other, 4)
	if s := other.Status(res); s.State != gobreaker.StateClosed {
		t.Fatalf("opened after 4 consecutive failures: %+v", s)
	}
}

// A half-open breaker whose probes are all out says the real time left
// (until their lease ends and a new round may start), not a fixed second.
func TestHalfOpenRefusalSaysTheTimeLeft(t *testing.T) {
	b, clock := newTestBreakers(t, NewMemoryStore())
	fail(t, b, 5)
	clock.Advance(30 * time.Second)
	for i := 0; i < 2; i++ {
		if _, err := b.Allow(res); err != nil {
			t.Fatalf("probe %d: %v", i+1, err)
		}
	}
	clock.Advance(15 * time.Second)
	_, err := b.Allow(res)
	var oe *OpenError
	if !errors.As(err, &oe) || oe.State != gobreaker.StateHalfOpen || oe.RetryIn != 45*time.Second ||
		!strings.HasSuffix(oe.Error(), "(retry in 45s)") {
		t.Fatalf("%v (%+v)", err, oe)
	}
}

// A stored open-until beyond one open window from now (a clock that jumped
// back, a hand-edited file) is clamped to one window.
func TestBreakerOpenUntilFarAheadIsClamped(t *testing.T) {
	dir := t.TempDir()
	b, clock := newTestBreakers(t, NewFileStore(dir))
	fail(t, b, 5)
	path := filepath.Join(dir, SafeName("breakers-api.example")+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open := clock.Now().Add(30 * time.Second).UTC().Format(time.RFC3339Nano)
	far := strings.Replace(string(data), open, "2126-01-01T00:00:00Z", 1)
	if far == string(data) {
		t.Fatalf("open-until %s not found in %s", open, data)
	}
	if err := os.WriteFile(path, []byte(far), 0o600); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	if s := b.Status(res); s.State != gobreaker.StateOpen || s.OpenUntil.After(clock.Now().Add(30*time.Second)) {
		t.Fatalf("status %+v", s)
	}
	_, err = b.Allow(res)
	var oe *OpenError
	if !errors.As(err, &oe) || oe.RetryIn != 30*time.Second {
		t.Fatalf("%v (%+v)", err, oe)
	}
	clock.Advance(30 * time.Second)
	if _, err := b.Allow(res); err != nil {
		t.Fatalf("still open one window later: %v", err)
	}
}
