package localapi

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestIdempotentReplayIsExact(t *testing.T) {
	e := newEnv(t, Config{})
	body := map[string]any{"playground": map[string]any{"name": "once", "playspec_id": "web"}}
	first := e.do("POST", "/api/playgrounds", body, withIdem("k-create-1"))
	expectStatus(t, first, http.StatusCreated)
	if first.header.Get("X-Idempotent-Replayed") != "" {
		t.Fatal("first answer marked replayed")
	}
	e.clock.Advance(10 * time.Second) // the playground is running now; the replay still says creating
	again := e.do("POST", "/api/playgrounds", body, withIdem("k-create-1"))
	expectStatus(t, again, http.StatusCreated)
	if again.header.Get("X-Idempotent-Replayed") != "true" {
		t.Fatalf("replay header %v", again.header)
	}
	if !bytes.Equal(first.body, again.body) {
		t.Fatalf("replayed body differs:\n%s\n%s", first.body, again.body)
	}
	for _, h := range []string{"Content-Type", "Location"} {
		if first.header.Get(h) != again.header.Get(h) {
			t.Fatalf("%s differs: %q vs %q", h, first.header.Get(h), again.header.Get(h))
		}
	}
	if again.header.Get("X-Request-Id") == "" || again.header.Get("X-RateLimit-Remaining") == "" {
		t.Fatalf("replay lacks per-request headers: %v", again.header)
	}
	st := e.srv.Stats()
	if st.Creates["once"] != 1 || st.Replays != 1 || st.Mutations != 1 {
		t.Fatalf("stats %+v", st)
	}

	// A 202 replays the same request id, so the client polls the one operation.
	e.clock.Advance(time.Second)
	a := e.do("POST", "/api/playgrounds/once/operations", map[string]any{"action_type": "rollout"}, withIdem("k-roll"))
	b := e.do("POST", "/api/playgrounds/once/operations", map[string]any{"action_type": "rollout"}, withIdem("k-roll"))
	expectStatus(t, b, http.StatusAccepted)
	if a.json(t)["request_id"] != b.json(t)["request_id"] {
		t.Fatal("replayed 202 names another operation")
	}
	// Keys are per API key namespace: the same key with no replay after 24h.
	e.clock.Advance(25 * time.Hour)
	late := e.do("POST", "/api/playgrounds", body, withIdem("k-create-1"))
	expectStatus(t, late, http.StatusUnprocessableEntity) // executed again: the name is taken
}

func TestIdempotencyKeyReused(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("r", "web", nil)
	expectStatus(t, e.do("POST", "/api/playgrounds/r/operations", map[string]any{"action_type": "stop"}, withIdem("k1")), http.StatusAccepted)
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"other body", "POST", "/api/playgrounds/r/operations", map[string]any{"action_type": "start"}},
		{"other path", "POST", "/api/playgrounds/r/status", nil},
		{"other method", "DELETE", "/api/playgrounds/r", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(tc.method, tc.path, tc.body, withIdem("k1"))
			expectStatus(t, r, http.StatusConflict)
			if r.errCode(t) != "CONFLICT" || r.errDetails(t)["reason"] != "idempotency_key_reused" {
				t.Fatalf("body %s", r.body)
			}
		})
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/r/status", nil, withIdem("bad key with spaces")), http.StatusBadRequest)
}

func TestFailedAnswersAreNotCached(t *testing.T) {
	e := newEnv(t, Config{})
	body := map[string]any{"playground": map[string]any{"name": "later", "playspec_id": "web", "marquee_id": "edge"}}
	expectStatus(t, e.do("POST", "/api/playgrounds", body, withIdem("k-retry")), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "edge", "host": "edge.test"}}), http.StatusCreated)
	r := e.do("POST", "/api/playgrounds", body, withIdem("k-retry"))
	expectStatus(t, r, http.StatusCreated)
	if r.header.Get("X-Idempotent-Replayed") != "" {
		t.Fatal("a failed answer was replayed")
	}
}

// A commit-then-hang request has done its work but not answered; a retry
// with its key meanwhile is told the key is in flight, and after the hang
// the answer is replayed. Nothing is created twice.
func TestIdempotencyKeyInFlightDuringHang(t *testing.T) {
	e := newEnv(t, Config{Chaos: "commit-then-hang=1:30s"})
	body := map[string]any{"playground": map[string]any{"name": "slow", "playspec_id": "web"}}

	// The client gives up once the server has committed and is hanging.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		deadline := time.Now().Add(5 * time.Second)
		for e.srv.Stats().Faults["commit-then-hang"] == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	req, _ := http.NewRequestWithContext(ctx, "POST", e.hs.URL+"/api/playgrounds", bytes.NewReader(mustJSON(t, body)))
	req.Header.Set("Authorization", "Bearer "+e.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "k-hang")
	start := time.Now()
	_, err := e.hc.Do(req)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("hung request ended with %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("the hang ignored the client's context (%v)", el)
	}
	if err := e.srv.SetChaos(""); err != nil {
		t.Fatal(err)
	}

	r := e.do("POST", "/api/playgrounds", body, withIdem("k-hang"))
	expectStatus(t, r, http.StatusConflict)
	if r.errDetails(t)["reason"] != "idempotency_key_in_flight" {
		t.Fatalf("body %s", r.body)
	}
	e.clock.Advance(31 * time.Second)
	r = e.do("POST", "/api/playgrounds", body, withIdem("k-hang"))
	expectStatus(t, r, http.StatusCreated)
	if r.header.Get("X-Idempotent-Replayed") != "true" {
		t.Fatal("not a replay")
	}
	st := e.srv.Stats()
	if st.Creates["slow"] != 1 || st.Faults["commit-then-hang"] != 1 {
		t.Fatalf("stats %+v", st)
	}
}
