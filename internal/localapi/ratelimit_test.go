//lint:file-ignore SA1008 the X-RateLimit-* headers are written and read under their documented spelling, which is not Go's canonical one

package localapi

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimit(t *testing.T) {
	e := newEnv(t, Config{RateLimit: 3, RateWindow: 10 * time.Second})
	// Windows are aligned on the Unix clock: the clock reads hh:mm:05, so
	// the window in force ends at hh:mm:10.
	if e.clock.Now().Unix()%10 != 5 {
		t.Fatalf("the test expects a clock at 5 s into a 10 s window, got %v", e.clock.Now())
	}
	resetAt := e.clock.Now().Add(5 * time.Second).Unix()
	for i := 1; i <= 3; i++ {
		r := e.do("GET", "/api/me", nil)
		expectStatus(t, r, http.StatusOK)
		if got := r.header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(3-i) {
			t.Fatalf("request %d: remaining %s", i, got)
		}
		if r.header.Get("X-RateLimit-Limit") != "3" || r.header.Get("X-RateLimit-Reset") != strconv.FormatInt(resetAt, 10) {
			t.Fatalf("headers %v", r.header)
		}
	}
	e.clock.Advance(2 * time.Second)
	r := e.do("GET", "/api/me", nil)
	expectStatus(t, r, http.StatusTooManyRequests)
	if r.errCode(t) != "RATE_LIMITED" || r.header.Get("Retry-After") != "3" || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("429: %v %s", r.header, r.body)
	}
	// /_local is not counted and still reports the window.
	s := e.do("GET", "/_local/stats", nil)
	expectStatus(t, s, http.StatusOK)
	if s.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("stats headers %v", s.header)
	}
	// Another key has its own budget, even a wrong one (it earns its 401s).
	e2 := *e
	e2.key = "fibe_someone_else"
	expectStatus(t, e2.do("GET", "/api/me", nil), http.StatusUnauthorized)

	e.clock.Advance(3 * time.Second) // exactly the Reset announced: a new window
	r = e.do("GET", "/api/me", nil)
	expectStatus(t, r, http.StatusOK)
	if r.header.Get("X-RateLimit-Remaining") != "2" || r.header.Get("X-RateLimit-Reset") != strconv.FormatInt(resetAt+10, 10) {
		t.Fatalf("new window: %v", r.header)
	}
	if n := e.srv.Stats().Requests["GET /api/me"]["429"]; n != 1 {
		t.Fatalf("429s counted %d", n)
	}
}

// A window of whole seconds starts and ends on whole seconds, whatever the
// instant of the first request, so Reset is the true end of the window; a
// window that is not whole seconds reports its end rounded up.
func TestRateWindowsAreAlignedOnTheUnixClock(t *testing.T) {
	st := &state{Rate: map[string]*rateWindow{}}
	base := time.Unix(1_900_000_002, 0) // a multiple of 2 s and of 1.5 s
	for _, c := range []struct {
		at     time.Duration
		window time.Duration
		start  time.Duration
		reset  int64 // header value, seconds after base
	}{
		{1300 * time.Millisecond, 2 * time.Second, 0, 2},
		{1999 * time.Millisecond, 2 * time.Second, 0, 2},
		{2 * time.Second, 2 * time.Second, 2 * time.Second, 4},
		{3700 * time.Millisecond, 2 * time.Second, 2 * time.Second, 4},
		{800 * time.Millisecond, 1500 * time.Millisecond, 0, 2}, // ends at 1.5 s
	} {
		now := base.Add(c.at)
		if got := windowStart(now, c.window); !got.Equal(base.Add(c.start)) {
			t.Errorf("window %v at +%v starts at %v, want +%v", c.window, c.at, got.Sub(base), c.start)
		}
		rs := st.rateLimit("k"+c.window.String(), now, 5, c.window, false)
		h := http.Header{}
		rs.setHeaders(h)
		if want := strconv.FormatInt(base.Unix()+c.reset, 10); h["X-RateLimit-Reset"][0] != want {
			t.Errorf("window %v at +%v: Reset %s, want %s", c.window, c.at, h["X-RateLimit-Reset"][0], want)
		}
	}
	// The count starts again at the boundary, not one window after the
	// first request.
	first := base.Add(1900 * time.Millisecond)
	for i := 0; i < 5; i++ {
		if st.rateLimit("b", first, 5, 2*time.Second, true).exceeded {
			t.Fatalf("request %d refused", i+1)
		}
	}
	if !st.rateLimit("b", first, 5, 2*time.Second, true).exceeded {
		t.Fatal("sixth request in the window admitted")
	}
	if rs := st.rateLimit("b", base.Add(2*time.Second), 5, 2*time.Second, true); rs.exceeded || rs.remaining != 4 {
		t.Fatalf("at the boundary: %+v", rs)
	}
}
