package localapi

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestRateLimit(t *testing.T) {
	e := newEnv(t, Config{RateLimit: 3, RateWindow: 10 * time.Second})
	resetAt := e.clock.Now().Add(10 * time.Second).Unix()
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
	e.clock.Advance(4 * time.Second)
	r := e.do("GET", "/api/me", nil)
	expectStatus(t, r, http.StatusTooManyRequests)
	if r.errCode(t) != "RATE_LIMITED" || r.header.Get("Retry-After") != "6" || r.header.Get("X-RateLimit-Remaining") != "0" {
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

	e.clock.Advance(6 * time.Second)
	r = e.do("GET", "/api/me", nil)
	expectStatus(t, r, http.StatusOK)
	if r.header.Get("X-RateLimit-Remaining") != "2" {
		t.Fatalf("new window: %v", r.header)
	}
	if n := e.srv.Stats().Requests["GET /api/me"]["429"]; n != 1 {
		t.Fatalf("429s counted %d", n)
	}
}
