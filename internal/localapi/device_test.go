package localapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// The device login as the public CLI sees it, on a clock the test moves:
// issue, a poll too soon (slow_down, the interval widens), pending,
// approval on the page, the key once, then already_consumed; a denied code
// is access_denied; an old one expired_token (410).
func TestDeviceLoginFlow(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_800_000_000, 0)
	srv, err := New(Config{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	post := func(path string, body any) (int, map[string]any) {
		t.Helper()
		b, _ := json.Marshal(body)
		resp, err := http.Post(ts.URL+path, "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	issue := func() (string, string) {
		t.Helper()
		st, dc := post("/cli/device_codes", map[string]string{"hostname": "laptop"})
		if st != http.StatusCreated || dc["interval"] != 5.0 || dc["expires_in"] != 900.0 ||
			dc["verification_uri"] != ts.URL+"/cli/device" || !strings.HasSuffix(dc["verification_uri_complete"].(string), "?user_code="+dc["user_code"].(string)) {
			t.Fatalf("issue: %d %v", st, dc)
		}
		return dc["device_code"].(string), dc["user_code"].(string)
	}
	poll := func(code string) (int, map[string]any) {
		t.Helper()
		return post("/cli/device_codes/poll", map[string]string{"device_code": code})
	}
	decide := func(user, decision string) int {
		t.Helper()
		resp, err := http.PostForm(ts.URL+"/cli/device", url.Values{"user_code": {user}, "decision": {decision}})
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "<script") {
			t.Errorf("the page runs scripts")
		}
		return resp.StatusCode
	}

	dc, user := issue()
	if st, out := poll(dc); st != 400 || out["error"] != "slow_down" {
		t.Errorf("poll at once: %d %v", st, out)
	}
	advance(6 * time.Second) // the interval is now 10 s
	if st, out := poll(dc); st != 400 || out["error"] != "slow_down" {
		t.Errorf("poll 6 s later, interval widened to 10 s: %d %v", st, out)
	}
	advance(16 * time.Second)
	if st, out := poll(dc); st != 200 || out["status"] != "authorization_pending" {
		t.Errorf("pending: %d %v", st, out)
	}
	if st := decide(user, "approve"); st != 200 {
		t.Fatalf("approve: %d", st)
	}
	advance(16 * time.Second)
	if st, out := poll(dc); st != 200 || out["status"] != "authorized" || out["api_key"] != DefaultAPIKey || out["scopes"] == nil {
		t.Errorf("authorized: %d %v", st, out)
	}
	advance(16 * time.Second)
	if st, out := poll(dc); st != 400 || out["error"] != "already_consumed" {
		t.Errorf("second key: %d %v", st, out)
	}
	if st := decide(user, "deny"); st != http.StatusConflict {
		t.Errorf("deciding a used code: %d", st)
	}

	dc, user = issue()
	if st := decide(user, "deny"); st != 200 {
		t.Fatalf("deny: %d", st)
	}
	advance(6 * time.Second)
	if st, out := poll(dc); st != 403 || out["error"] != "access_denied" {
		t.Errorf("denied: %d %v", st, out)
	}

	dc, _ = issue()
	advance(16 * time.Minute)
	if st, out := poll(dc); st != 410 || out["error"] != "expired_token" {
		t.Errorf("expired: %d %v", st, out)
	}
	if st, out := poll("dc_unknown"); st != 400 || out["error"] != "invalid_grant" {
		t.Errorf("unknown code: %d %v", st, out)
	}
	if st := decide("NOPE-NOPE", "approve"); st != http.StatusNotFound {
		t.Errorf("unknown user code on the page: %d", st)
	}
}
