package reliability

import (
	"net/http"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestParseRateLimit(t *testing.T) {
	rl, ok := ParseRateLimit(header("X-RateLimit-Limit", "600", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1700000000"))
	if !ok || rl.Limit != 600 || rl.Remaining != 0 || !rl.Reset.Equal(time.Unix(1700000000, 0)) {
		t.Fatalf("got %+v, %v", rl, ok)
	}
	for _, h := range []http.Header{
		header(),
		header("X-RateLimit-Remaining", "3"),
		header("X-RateLimit-Remaining", "-1", "X-RateLimit-Reset", "1700000000"),
		header("X-RateLimit-Remaining", "x", "X-RateLimit-Reset", "1700000000"),
		header("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "soon"),
		header("X-RateLimit-Remaining", "1", "X-RateLimit-Reset", "99999999999999999999"),
	} {
		if rl, ok := ParseRateLimit(h); ok {
			t.Errorf("%v parsed as %+v", h, rl)
		}
	}
}

func FuzzParseRateLimit(f *testing.F) {
	f.Add("600", "0", "1700000000")
	f.Add("", "12", "0")
	f.Add("x", "-1", "1e9")
	f.Add("1", "99999999999999999999", " 5 ")
	f.Fuzz(func(t *testing.T, limit, remaining, reset string) {
		rl, ok := ParseRateLimit(header("X-RateLimit-Limit", limit, "X-RateLimit-Remaining", remaining, "X-RateLimit-Reset", reset))
		if !ok {
			return
		}
		if rl.Limit < 0 || rl.Remaining < 0 || rl.Reset.Before(time.Unix(0, 0)) {
			t.Fatalf("nonsense accepted: %+v", rl)
		}
	})
}

func TestLedgerWaitsUntilResetAcrossInvocations(t *testing.T) {
	dir := t.TempDir()
	clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
	first := NewLedger(NewFileStore(dir), "api.example", Policy{}, clock)
	if d := first.Wait(); d != 0 {
		t.Fatalf("fresh ledger waits %v", d)
	}
	// Budget left: no wait.
	if err := first.Observe(RateLimit{Limit: 10, Remaining: 1, Reset: clock.Now().Add(20 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if d := first.Wait(); d != 0 {
		t.Fatalf("remaining 1 waits %v", d)
	}
	if err := first.Observe(RateLimit{Limit: 10, Remaining: 0, Reset: clock.Now().Add(20 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	// The next invocation (a new ledger on the same state dir) waits too.
	next := NewLedger(NewFileStore(dir), "api.example", Policy{}, clock)
	if d := next.Wait(); d != 20*time.Second {
		t.Fatalf("next invocation waits %v, want 20s", d)
	}
	clock.Advance(15 * time.Second)
	if d := next.Wait(); d != 5*time.Second {
		t.Fatalf("after 15s waits %v, want 5s", d)
	}
	clock.Advance(5 * time.Second)
	if d := next.Wait(); d != 0 {
		t.Fatalf("after reset waits %v", d)
	}
	// Another host has its own ledger.
	if d := NewLedger(NewFileStore(dir), "other.example", Policy{}, clock).Wait(); d != 0 {
		t.Fatalf("other host waits %v", d)
	}
	// A reset far ahead is capped.
	_ = next.Observe(RateLimit{Remaining: 0, Reset: clock.Now().Add(24 * time.Hour)})
	if d := next.Wait(); d != DefaultPolicy().RateWaitCeiling {
		t.Fatalf("far reset waits %v, want the ceiling", d)
	}
}
