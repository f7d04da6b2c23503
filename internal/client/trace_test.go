package client

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fibegg/fibe/internal/testio"
)

func TestDebugTraceShowsAttemptsDelaysBreakerAndPollsButNoSecrets(t *testing.T) {
	const sshKey = "-----BEGIN OPENSSH PRIVATE KEY-----SECRETSSH"
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodPost && n.Add(1) == 1:
			apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
		case r.Method == http.MethodPost:
			w.Header().Set("X-Request-Id", "req_t")
			replyJSON(w, 202, map[string]any{"request_id": "req_t", "status": "queued"})
		default:
			replyJSON(w, 200, map[string]any{"status": "success", "result": map[string]any{
				"id": 3, "name": "m", "api_token": "tok-SECRETTOKEN", "password": "pw-SECRETPW",
				"cable": "ws://x/cable?token=SECRETQUERY"}})
		}
	})
	var buf testio.Buffer
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Debug = &buf; o.Policy.BreakerThreshold = 1 })
	_, _, err := c.Marquees.Create(ctxT(t), map[string]any{"name": "m", "ssh_private_key": sshKey}, MutationOptions{}, WaitOptions{})
	// Threshold 1: the 503 opens the breaker, so the create stops with CIRCUIT_OPEN.
	mustError(t, err, CodeCircuitOpen)
	_ = c.ResetBreakers("")
	if _, _, err := c.Marquees.Create(ctxT(t), map[string]any{"name": "m", "ssh_private_key": sshKey}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"--> POST " + srv.URL + "/api/marquees (attempt 1/4, breaker marquee/m)",
		"Authorization: Bearer [REDACTED]", "<-- 503", "breaker marquee/m: closed → open", "circuit breaker open for marquee/m",
		"accepted: request req_t", "poll 1 of req_t: success", `"ssh_private_key":"[REDACTED]"`} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	for _, secret := range []string{testKey, "SECRETSSH", "SECRETTOKEN", "SECRETPW", "SECRETQUERY"} {
		if strings.Contains(out, secret) {
			t.Errorf("trace leaks %q", secret)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestDebugTraceShowsRetryDelayAndWhy(t *testing.T) {
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "2")
			apiError(w, 429, "RATE_LIMITED", "slow", nil)
			return
		}
		replyJSON(w, 200, map[string]any{"id": 1})
	})
	var buf testio.Buffer
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Debug = &buf })
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "retry 1/3 in 2s: 429 rate limited; Retry-After") {
		t.Fatalf("trace:\n%s", out)
	}
}
