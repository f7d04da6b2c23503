package client

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// A status store that answers 503 for a while does not end the wait: the
// polls' own budgets are spent, the breaker opens and paces them (no
// request while open, then half-open probes), and once the store is back
// the operation's result arrives.
func TestPollingGoesOnThroughASickStatusStore(t *testing.T) {
	// The store is sick for the first 45 s of the client's (fake) time.
	var clock atomic.Pointer[reliabilitytest.Clock]
	start := time.Unix(1_700_000_000, 0)
	var polls atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodPost:
			replyJSON(w, 202, map[string]any{"request_id": "req_sick", "status": "queued"})
		case clock.Load().Now().Sub(start) < 45*time.Second:
			polls.Add(1)
			apiError(w, 503, "INTERNAL_ERROR", "status store down", nil)
		default:
			replyJSON(w, 200, map[string]any{"status": "success", "result": map[string]any{"id": 5, "name": "pg", "status": "running"}})
		}
	})
	c, env := newTestClient(t, srv.URL)
	clock.Store(env.clock)
	st, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{})
	if err != nil || st.Status != "running" {
		t.Fatalf("%+v %v", st, err)
	}
	// The first poll's 4 attempts and the second's first open the breaker
	// (5 failures); nothing is sent while it is open; the half-open probe
	// at 30 s fails and opens it again; the one at 60 s gets the result.
	if n := polls.Load(); n != 6 {
		t.Fatalf("%d failed polls in 45s, want 6: the breaker paces them", n)
	}
	if s := env.clock.Sleeps(); len(s) != 6 || s[4] != 30*time.Second || s[5] != 30*time.Second {
		t.Fatalf("sleeps %v, want the two open windows at the end", s)
	}
	if rec.count() != int(polls.Load())+2 {
		t.Fatalf("%d requests", rec.count())
	}
	if len(env.events.kinds(EventBreaker)) == 0 {
		t.Fatal("the breaker never opened")
	}
}

// At the deadline a wait through a sick store is ASYNC_TIMEOUT (exit 10,
// not 12) with the last poll's failure in its details and the command
// that resumes it; a 404 from the status URL still ends the wait at once.
func TestPollingThroughASickStoreEndsAtTheDeadline(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){func(w http.ResponseWriter) {
		w.Header().Set("X-Request-Id", "req_poll_503")
		apiError(w, 503, "INTERNAL_ERROR", "status store down", nil)
	}})
	c, env := newTestClient(t, url)
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{Timeout: time.Minute})
	e := mustError(t, err, CodeAsyncTimeout)
	if e.AsyncRequestID != "req_5c1d" || e.Resume == nil || e.Resume.WaitRequestID != "req_5c1d" || strings.Contains(e.Message, "fibe ") {
		t.Fatalf("%+v", e)
	}
	if e.Details["last_error"] != CodeCircuitOpen && e.Details["last_error"] != CodeInternal {
		t.Fatalf("details %v", e.Details)
	}
	if !strings.Contains(e.Message, "the last poll failed") {
		t.Fatalf("message %q", e.Message)
	}
	if el := env.clock.Now().Sub(time.Unix(1_700_000_000, 0)); el < time.Minute || el > time.Minute+2*time.Second {
		t.Fatalf("gave up after %v, want the 1m deadline", el)
	}

	_, url = asyncServer(t, "", []func(http.ResponseWriter){func(w http.ResponseWriter) {
		w.Header().Set("X-Request-Id", "req_poll_404")
		apiError(w, 404, "RESOURCE_NOT_FOUND", "unknown", nil)
	}})
	c, env = newTestClient(t, url)
	_, _, err = c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{Timeout: time.Minute})
	e = mustError(t, err, CodeNotFound)
	if len(env.clock.Sleeps()) != 0 {
		t.Fatalf("a 404 did not end the wait at once: sleeps %v", env.clock.Sleeps())
	}
	// The error keeps the poll answer's request id; the operation's is apart.
	if e.RequestID != "req_poll_404" || e.AsyncRequestID != "req_5c1d" || e.Details["async_request_id"] != "req_5c1d" {
		t.Fatalf("%+v", e)
	}
}

// pg wait goes on through failed status reads the same way.
func TestPlaygroundWaitGoesOnThroughFailedReads(t *testing.T) {
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) <= 8 {
			resetConn(t, w)
			return
		}
		replyJSON(w, 200, map[string]any{"id": 8, "name": "pg", "status": "running"})
	})
	c, _ := newTestClient(t, srv.URL)
	st, err := c.Playgrounds.Wait(ctxT(t), "pg", "running", WaitOptions{})
	if err != nil || st.Status != "running" {
		t.Fatalf("%+v %v", st, err)
	}
}

// A failed rollout keeps the server's code and details, and adds what
// `pg wait` shows, from one status read: where it failed and why.
func TestFailedActionCarriesTheFailedStepAndDiagnostics(t *testing.T) {
	var statusReads atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodPost:
			replyJSON(w, 202, map[string]any{"request_id": "req_f", "status": "queued"})
		case r.URL.Path == "/api/playgrounds/pg/status":
			statusReads.Add(1)
			replyJSON(w, 200, map[string]any{"id": 8, "name": "pg", "status": "error", "marquee_name": "prod-eu",
				"state_reasons": []string{"image_pull_failed"}, "error_step": "build", "error_step_label": "Build images",
				"build_statuses":      []map[string]any{{"service": "web", "status": "failed", "error": "pull access denied"}},
				"failure_diagnostics": map[string]any{"hint": "check the image name"}})
		default:
			replyJSON(w, 200, map[string]any{"status": "error", "code": "PLAYGROUND_BUILD_FAILED", "message": "build failed",
				"details": map[string]any{"reason": "image_pull_failed", "status": "kept"}})
		}
	})
	c, _ := newTestClient(t, srv.URL)
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, "PLAYGROUND_BUILD_FAILED")
	if e.Message != "build failed" || e.Details["reason"] != "image_pull_failed" || e.Details["status"] != "kept" {
		t.Fatalf("the server's error was not kept: %+v", e)
	}
	if e.Details["error_step"] != "build" || e.Details["build_statuses"] == nil || e.Details["failure_diagnostics"] == nil ||
		fmt.Sprint(e.Details["state_reasons"]) != "[image_pull_failed]" || statusReads.Load() != 1 {
		t.Fatalf("details %v after %d status reads", e.Details, statusReads.Load())
	}
}

func TestEmulatorFailedRolloutSaysWhereAndWhy(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "broken-2", "playspec_id": "broken", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Playgrounds.Action(ctxT(t), "broken-2", "rollout", false, MutationOptions{}, WaitOptions{})
	e, ok := AsError(err)
	if !ok || !e.Async || e.Details["error_step"] != "build" || e.Details["build_statuses"] == nil || e.Details["failure_diagnostics"] == nil {
		t.Fatalf("%+v", err)
	}
}
