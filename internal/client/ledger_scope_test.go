package client

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// rateSpent answers 200 with a spent window that resets 20 s after now.
func rateSpent(now func() time.Time) func(w http.ResponseWriter, r *http.Request, s seen) {
	return func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("X-RateLimit-Limit", "600")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now().Add(20*time.Second).Unix(), 10))
		replyJSON(w, 200, map[string]any{"id": 1})
	}
}

// The rate ledger is kept per API origin and API key, as servers count per
// key: another key on the same API has its own window. The key itself is
// never written to the state directory.
func TestRateLedgerIsPerAPIKey(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	srv, _ := serve(t, rateSpent(func() time.Time { return start }))
	dir := t.TempDir()
	first, env := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir })
	if _, _, err := first.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	other, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir; o.Clock = env.clock; o.APIKey = "fibe_other_key_0000000000" })
	if _, _, err := other.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if s := env.clock.Sleeps(); len(s) != 0 {
		t.Fatalf("another key waited for this key's window: %v", s)
	}
	same, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir; o.Clock = env.clock })
	if _, _, err := same.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if s := env.clock.Sleeps(); len(s) != 1 || s[0] != 20*time.Second {
		t.Fatalf("the same key did not wait for its window: %v", s)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		for _, key := range []string{testKey, "fibe_other_key_0000000000"} {
			if strings.Contains(e.Name(), key) || strings.Contains(string(data), key) {
				t.Fatalf("%s holds an API key", e.Name())
			}
		}
	}
}

// A 429's Retry-After satisfies the ledger for that window: the retry
// goes after exactly Retry-After, not Retry-After and then the ledger's
// wait for the reset.
func TestRetryAfterOf429AndTheLedgerDoNotStack(t *testing.T) {
	start := time.Unix(1_700_000_000, 0)
	var n atomic.Int32
	spent := rateSpent(func() time.Time { return start.Add(40 * time.Second) })
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) == 1 {
			w.Header().Set("X-RateLimit-Limit", "600")
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(start.Add(60*time.Second).Unix(), 10))
			w.Header().Set("Retry-After", "2")
			apiError(w, 429, "RATE_LIMITED", "slow down", nil)
			return
		}
		spent(w, r, s)
	})
	c, env := newTestClient(t, srv.URL)
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if s := env.clock.Sleeps(); len(s) != 1 || s[0] != 2*time.Second || rec.count() != 2 {
		t.Fatalf("sleeps %v after %d requests, want [2s] after 2", s, rec.count())
	}
	// The next request, in a window known to be spent, waits as usual.
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if s := env.clock.Sleeps(); len(s) != 2 || s[1] <= 0 {
		t.Fatalf("sleeps %v", s)
	}
}
