package reliability

import (
	"net/http"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// Whatever X-RateLimit-* headers an answer carries, the ledger never makes
// a request wait beyond its ceiling, and never at all for a window that
// resets more than MaxRateReset ahead or already passed.
func FuzzRateLimitHeaders(f *testing.F) {
	for _, s := range [][3]string{
		{"100", "0", "1700000060"}, {"100", "0", "99999999999"}, {"", "0", "1"}, {"10", "5", "1700000000"},
		{"-1", "-1", "-1"}, {"1e3", " 0 ", "0x10"}, {"9999999999999999999", "0", "1700086400"}, {"10", "0", "1700086401"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, limit, remaining, reset string) {
		h := http.Header{}
		h.Set("X-RateLimit-Limit", limit)
		h.Set("X-RateLimit-Remaining", remaining)
		h.Set("X-RateLimit-Reset", reset)
		rl, ok := ParseRateLimit(h)
		if !ok {
			return
		}
		if rl.Remaining < 0 || rl.Limit < 0 {
			t.Fatalf("negative counts parsed: %+v", rl)
		}
		clock := reliabilitytest.NewClock(time.Unix(1_700_000_000, 0))
		l := NewLedger(NewMemoryStore(), "api.example", Policy{}, clock)
		if err := l.Observe(rl); err != nil {
			t.Fatal(err)
		}
		w := l.Wait()
		if w < 0 || w > DefaultRateWaitCeiling {
			t.Fatalf("wait %v after %+v", w, rl)
		}
		if !rl.Plausible(clock.Now()) && w != 0 {
			t.Fatalf("an implausible reset %v made a request wait %v", rl.Reset, w)
		}
	})
}
