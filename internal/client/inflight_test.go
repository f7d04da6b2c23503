package client

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

func inFlight(w http.ResponseWriter) {
	w.Header().Set("X-Request-Id", "req_409")
	apiError(w, 409, "CONFLICT", "a request with this Idempotency-Key is still being processed",
		map[string]any{"reason": reliability.ReasonInFlight})
}

// A 409 idempotency_key_in_flight is waited out with the same key past the
// retry budget (docs/contract.md §2), with backoff between the attempts.
func TestInFlightIsWaitedOutBeyondTheRetryBudget(t *testing.T) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) <= 12 {
			inFlight(w)
			return
		}
		w.Header().Set("X-Idempotent-Replayed", "true")
		replyJSON(w, 200, map[string]any{"id": 9, "name": "pg", "status": "running"})
	})
	c, env := newTestClient(t, srv.URL)
	st, meta, err := c.Playgrounds.Action(ctxT(t), "pg", "hard_restart", false, MutationOptions{}, WaitOptions{})
	if err != nil || st.Status != "running" || !meta.Replayed {
		t.Fatalf("%+v %+v %v", st, meta, err)
	}
	if rec.count() != 13 {
		t.Fatalf("%d attempts, want 13", rec.count())
	}
	for _, r := range rec.all() {
		if r.Header.Get("Idempotency-Key") != meta.IdempotencyKey {
			t.Fatal("the key changed between attempts")
		}
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 12 {
		t.Fatalf("sleeps %v", sleeps)
	}
	for i, d := range sleeps {
		if hi := reliability.JitterCeiling(500*time.Millisecond, 30*time.Second, i); d < 0 || d >= hi {
			t.Fatalf("delay %d = %v outside full jitter [0, %v)", i, d, hi)
		}
	}
}

// The server's Retry-After paces the wait exactly.
func TestInFlightHonoursRetryAfter(t *testing.T) {
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) <= 2 {
			w.Header().Set("Retry-After", "3")
			inFlight(w)
			return
		}
		replyJSON(w, 200, map[string]any{"id": 9, "name": "pg"})
	})
	c, env := newTestClient(t, srv.URL)
	if _, _, err := c.Playgrounds.Extend(ctxT(t), "pg", 1, MutationOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := env.clock.Sleeps(); len(s) != 2 || s[0] != 3*time.Second || s[1] != 3*time.Second {
		t.Fatalf("sleeps %v, want [3s 3s]", s)
	}
}

// Past the command's wait deadline the mutation ends as ASYNC_TIMEOUT with
// its key, the outcome unknown and the key that resumes it: never CONFLICT.
// Commands without --wait-timeout use the policy's wait.
func TestInFlightPastTheDeadlineIsAsyncTimeoutWithTheKey(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { inFlight(w) })
	for _, tc := range []struct {
		name string
		wait time.Duration
		call func(c *Client) (*Response, error)
	}{
		{"restart --wait-timeout 20s", 20 * time.Second, func(c *Client) (*Response, error) {
			_, meta, err := c.Playgrounds.Action(ctxT(t), "pg", "hard_restart", false, MutationOptions{IdempotencyKey: "ci-7-restart"},
				WaitOptions{Timeout: 20 * time.Second})
			return meta, err
		}},
		{"extend (policy wait 1m)", time.Minute, func(c *Client) (*Response, error) {
			_, meta, err := c.Playgrounds.Extend(ctxT(t), "pg", 1, MutationOptions{IdempotencyKey: "ci-7-restart"})
			return meta, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, env := newTestClient(t, srv.URL, func(o *Options) { o.Policy.PollTimeout = time.Minute })
			_, err := tc.call(c)
			e := mustError(t, err, CodeAsyncTimeout)
			if e.IdempotencyKey != "ci-7-restart" || !e.OutcomeUnknown || e.Resume == nil ||
				e.Resume.IdempotencyKey != "ci-7-restart" || e.Resume.WaitRequestID != "" || e.AsyncRequestID != "" {
				t.Fatalf("%+v resume %+v", e, e.Resume)
			}
			if e.RequestID != "req_409" || e.Details["reason"] != reliability.ReasonInFlight || !strings.Contains(e.Message, "ci-7-restart") || strings.Contains(e.Message, "--") {
				t.Fatalf("%+v", e)
			}
			var total time.Duration
			for _, d := range env.clock.Sleeps() {
				total += d
			}
			if total != tc.wait {
				t.Fatalf("waited %v, want the %v deadline", total, tc.wait)
			}
		})
	}
}

// Against the emulator: a restart whose answer hangs after it committed
// times out, is sent again with its key, is told "in flight", waits, and
// gets the replay. The restart ran once.
func TestEmulatorCommitThenHangIsReplayedNotRunTwice(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url, func(o *Options) {
		o.Policy.AttemptTimeout = 300 * time.Millisecond
		o.Policy.BaseDelay = 50 * time.Millisecond
	})
	mustCreate(t, c, "hang-1")
	if err := s.SetChaos("commit-then-hang=1:1500ms"); err != nil {
		t.Fatal(err)
	}
	before := s.Stats()
	st, meta, err := c.Playgrounds.Action(ctxT(t), "hang-1", "hard_restart", false, MutationOptions{}, WaitOptions{})
	if err != nil || st.Status != "running" {
		t.Fatalf("%+v %v", st, err)
	}
	after := s.Stats()
	if after.Mutations-before.Mutations != 1 || after.Replays == before.Replays || !meta.Replayed {
		t.Fatalf("mutations %d → %d, replays %d → %d", before.Mutations, after.Mutations, before.Replays, after.Replays)
	}
	if n := after.Requests["POST /api/playgrounds/{id}/operations"]["409"]; n < 1 {
		t.Fatalf("never told in flight: %v", after.Requests)
	}
}

// The in-flight wait and the wait on the operation it started share the
// command's deadline.
func TestInFlightAndTheAsyncWaitShareTheDeadline(t *testing.T) {
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method != http.MethodPost:
			replyJSON(w, 200, map[string]any{"status": "running"})
		case n.Add(1) <= 3:
			w.Header().Set("Retry-After", "5")
			inFlight(w)
		default:
			replyJSON(w, 202, map[string]any{"request_id": "req_late", "status": "queued"})
		}
	})
	c, env := newTestClient(t, srv.URL)
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{Timeout: 40 * time.Second})
	mustError(t, err, CodeAsyncTimeout)
	if el := env.clock.Now().Sub(time.Unix(1_700_000_000, 0)); el != 40*time.Second {
		t.Fatalf("the command waited %v, want its 40s deadline", el)
	}
}
