package client

import (
	"context"
	"errors"
	"net/http"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/fibegg/fibe/internal/reliability"
)

var hexKey = regexp.MustCompile(`^[0-9a-f]{32}$`)

func TestOneIdempotencyKeyPerLogicalOperation(t *testing.T) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1)%3 != 0 { // two 503s, then success, per create
			apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
			return
		}
		replyJSON(w, 201, map[string]any{"id": 7, "name": "preview-42", "status": "creating", "marquee_name": "prod-eu"})
	})
	c, _ := newTestClient(t, srv.URL)
	body := map[string]any{"name": "preview-42", "playspec_id": 1}
	for i := 0; i < 2; i++ {
		p, meta, err := c.Playgrounds.Create(ctxT(t), body, MutationOptions{}, WaitOptions{})
		if err != nil || p.ID != 7 {
			t.Fatalf("create %d: %v %+v", i, err, p)
		}
		if !hexKey.MatchString(meta.IdempotencyKey) {
			t.Fatalf("response key %q", meta.IdempotencyKey)
		}
	}
	reqs := rec.all()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	first, second := reqs[0].Header.Get("Idempotency-Key"), reqs[3].Header.Get("Idempotency-Key")
	for i, r := range reqs {
		want := first
		if i >= 3 {
			want = second
		}
		if got := r.Header.Get("Idempotency-Key"); got != want {
			t.Fatalf("attempt %d carried key %q, want %q", i+1, got, want)
		}
		// Headers of docs/api.md on every attempt.
		if r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("Accept") != "application/json" ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("User-Agent") != "fibe-cli/test (linux/amd64)" {
			t.Fatalf("attempt %d headers: %v", i+1, r.Header)
		}
		if r.Body != `{"playground":{"name":"preview-42","playspec_id":1}}` {
			t.Fatalf("attempt %d body %s", i+1, r.Body)
		}
	}
	if !hexKey.MatchString(first) || first == second {
		t.Fatalf("keys %q and %q: want two distinct 32-hex keys", first, second)
	}
}

func TestGetCarriesNoKeyAndSuppliedKeyIsSentUnchanged(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if r.Method == http.MethodGet {
			replyJSON(w, 200, map[string]any{"id": 1, "email": "a@b.c"})
			return
		}
		replyJSON(w, 200, map[string]any{"id": 1, "name": "x"})
	})
	c, _ := newTestClient(t, srv.URL)
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Playgrounds.Extend(ctxT(t), "x", 2, MutationOptions{IdempotencyKey: "ci-42-extend"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Playgrounds.Extend(ctxT(t), "x", 2, MutationOptions{IdempotencyKey: "bad key"}); err == nil {
		t.Fatal("invalid key accepted")
	}
	reqs := rec.all()
	if reqs[0].Header.Get("Idempotency-Key") != "" || reqs[0].Header.Get("Content-Type") != "" {
		t.Fatalf("GET headers %v", reqs[0].Header)
	}
	last := reqs[len(reqs)-1]
	if last.Header.Get("Idempotency-Key") != "ci-42-extend" || last.Body != `{"duration_hours":2}` {
		t.Fatalf("extend sent %v %s", last.Header, last.Body)
	}
	for _, r := range reqs {
		if r.Header.Get("Idempotency-Key") == "bad key" {
			t.Fatal("invalid key was sent")
		}
	}
}

func TestTimedOutMutationIsRetriedWithTheSameKey(t *testing.T) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) == 1 {
			<-r.Context().Done() // never answers: the client's attempt timeout fires
			return
		}
		replyJSON(w, 200, map[string]any{"id": 3, "name": "prod-eu"})
	})
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Policy.AttemptTimeout = 200 * time.Millisecond })
	_, meta, err := c.Marquees.Update(ctxT(t), "prod-eu", map[string]any{"port": 2222}, MutationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	if len(reqs) != 2 || reqs[0].Header.Get("Idempotency-Key") != meta.IdempotencyKey || reqs[1].Header.Get("Idempotency-Key") != meta.IdempotencyKey {
		t.Fatalf("%d attempts, keys %q %q, want 2 with %q", len(reqs), reqs[0].Header.Get("Idempotency-Key"),
			reqs[len(reqs)-1].Header.Get("Idempotency-Key"), meta.IdempotencyKey)
	}
}

func TestTimedOutRequestWithoutKeyIsNotRetried(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { <-r.Context().Done() })
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Policy.AttemptTimeout = 100 * time.Millisecond; o.Policy.BreakerThreshold = 100 })
	// A POST without an Idempotency-Key is not idempotent (no public call
	// sends one; this exercises the loop's rule directly).
	_, err := c.do(ctxT(t), &request{method: http.MethodPost, ref: "/api/things", body: map[string]any{}})
	e := mustError(t, err, CodeRequestTimeout)
	if e.Retryable || rec.count() != 1 {
		t.Fatalf("retryable=%v after %d attempts, want one attempt, not retryable", e.Retryable, rec.count())
	}
	// A GET that times out is retried through the whole budget.
	_, _, err = c.Me(ctxT(t))
	mustError(t, err, CodeRequestTimeout)
	if rec.count() != 1+4 {
		t.Fatalf("GET made %d attempts, want 4", rec.count()-1)
	}
}

func TestRetryAfterIsHonouredExactlyWithoutJitter(t *testing.T) {
	var n atomic.Int32
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "2")
			apiError(w, 429, "RATE_LIMITED", "slow down", nil)
		case 2:
			w.Header().Set("Retry-After", "3600") // capped at the ceiling
			apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
		case 3:
			w.Header().Set("Retry-After", "soon") // garbage: backoff instead
			apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
		default:
			replyJSON(w, 200, map[string]any{"id": 1})
		}
	})
	c, env := newTestClient(t, srv.URL)
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 3 || sleeps[0] != 2*time.Second || sleeps[1] != 30*time.Second {
		t.Fatalf("sleeps %v, want [2s 30s <jitter>]", sleeps)
	}
	if ceiling := reliability.JitterCeiling(500*time.Millisecond, 30*time.Second, 2); sleeps[2] < 0 || sleeps[2] >= ceiling {
		t.Fatalf("third delay %v not full jitter in [0, %v)", sleeps[2], ceiling)
	}
	retries := env.events.kinds(EventRetry)
	if len(retries) != 3 || retries[0].Delay != 2*time.Second {
		t.Fatalf("retry events %+v", retries)
	}
}

func TestRateLimitedAfterTheBudgetCarriesRetryAfter(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("Retry-After", "1")
		w.Header().Set("X-Request-Id", "req_rl")
		apiError(w, 429, "RATE_LIMITED", "slow down", nil)
	})
	c, _ := newTestClient(t, srv.URL)
	_, _, err := c.Me(ctxT(t))
	e := mustError(t, err, CodeRateLimited)
	if !hasCode(err, CodeRateLimited) || !e.Retryable || e.RetryAfter != time.Second || e.Status != 429 || e.RequestID != "req_rl" || rec.count() != 4 {
		t.Fatalf("%+v after %d attempts", e, rec.count())
	}
	if e.Error() != "RATE_LIMITED: slow down (request req_rl)" {
		t.Fatalf("Error() = %q", e.Error())
	}
}

func TestBackoffDelaysStayWithinFullJitterBounds(t *testing.T) {
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { apiError(w, 502, "", "", nil) })
	for seed := uint64(0); seed < 20; seed++ {
		c, env := newTestClient(t, srv.URL, func(o *Options) {
			o.Policy.BreakerThreshold = 1000
			o.Policy.MaxRetries = 6
		})
		c.rand = randFor(seed)
		_, _, err := c.Me(ctxT(t))
		mustError(t, err, CodeInternal)
		sleeps := env.clock.Sleeps()
		if len(sleeps) != 6 {
			t.Fatalf("seed %d: %d sleeps", seed, len(sleeps))
		}
		for i, d := range sleeps {
			if hi := reliability.JitterCeiling(500*time.Millisecond, 30*time.Second, i); d < 0 || d >= hi {
				t.Fatalf("seed %d: delay %d = %v outside [0, %v)", seed, i, d, hi)
			}
		}
	}
}

func TestInFlightConflictIsRetriedWithTheSameKeyUntilReplayed(t *testing.T) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) <= 2 {
			apiError(w, 409, "CONFLICT", "in flight", map[string]any{"reason": "idempotency_key_in_flight"})
			return
		}
		w.Header().Set("X-Idempotent-Replayed", "true")
		replyJSON(w, 200, map[string]any{"id": 9, "name": "pg"})
	})
	c, env := newTestClient(t, srv.URL)
	_, meta, err := c.Playgrounds.Extend(ctxT(t), "pg", 1, MutationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !meta.Replayed || len(env.events.kinds(EventReplay)) != 1 {
		t.Fatalf("replay not reported: %+v", meta)
	}
	posts := 0
	for _, r := range rec.all() {
		if r.Method == http.MethodPost {
			posts++
			if r.Header.Get("Idempotency-Key") != meta.IdempotencyKey {
				t.Fatal("key changed between attempts")
			}
		}
	}
	if posts != 3 {
		t.Fatalf("%d attempts, want 3", posts)
	}
	// A plain 409 is terminal: sent once.
	srv2, rec2 := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		apiError(w, 409, "CONFLICT", "stale", map[string]any{"reason": "version"})
	})
	c2, _ := newTestClient(t, srv2.URL)
	_, _, err = c2.Playgrounds.Extend(ctxT(t), "pg", 1, MutationOptions{})
	if e := mustError(t, err, CodeConflict); e.Retryable || rec2.count() != 1 || e.Details["reason"] != "version" {
		t.Fatalf("%+v after %d", e, rec2.count())
	}
}

func TestValidationErrorIsSentOnce(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("X-Request-Id", "req_abc123")
		apiError(w, 422, "VALIDATION_FAILED", "name has already been taken", map[string]any{"name": []string{"has already been taken"}})
	})
	c, _ := newTestClient(t, srv.URL)
	_, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "x"}, MutationOptions{}, WaitOptions{})
	e := mustError(t, err, CodeValidation)
	if rec.count() != 1 || e.Error() != "VALIDATION_FAILED: name has already been taken (request req_abc123)" || e.IdempotencyKey == "" {
		t.Fatalf("%d requests, %v, key %q", rec.count(), e, e.IdempotencyKey)
	}
}

func TestConnectionResetsAreRetried(t *testing.T) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if n.Add(1) <= 2 {
			resetConn(t, w)
			return
		}
		replyJSON(w, 200, map[string]any{"id": 1})
	})
	c, _ := newTestClient(t, srv.URL)
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 3 {
		t.Fatalf("%d attempts, want 3", rec.count())
	}
	// Refused connections after the budget are NETWORK_ERROR.
	c2, _ := newTestClient(t, "http://127.0.0.1:1")
	_, _, err := c2.Me(context.Background())
	if e := mustError(t, err, CodeNetwork); e.Status != 0 || !e.Retryable {
		t.Fatalf("%+v", e)
	}
}

// Client.Retry is the loop for attempts that are not plain HTTP requests:
// transport failures are retried and counted, a status decides by the
// contract (its Retry-After honoured), Permanent ends at once uncounted.
func TestRetryClassifiesNonHTTPAttempts(t *testing.T) {
	c, env := newTestClient(t, "http://127.0.0.1:1")
	const res = "marquee/ws"
	calls := 0
	err := c.Retry(ctxT(t), res, func(context.Context) error {
		calls++
		switch calls {
		case 1:
			return errors.New("connection reset by peer")
		case 2:
			return &Error{Status: 503, Code: CodeInternal, Message: "busy", retryAfter: 3 * time.Second, hasRetryAfter: true}
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("err %v after %d calls, want success on the third", err, calls)
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 2 || sleeps[0] >= 500*time.Millisecond || sleeps[1] != 3*time.Second {
		t.Fatalf("sleeps %v, want [<jitter below 500ms> 3s]", sleeps)
	}
	if n := failuresOf(t, c, res); n != 0 {
		t.Fatalf("%d failures after the success", n)
	}

	calls = 0
	err = c.Retry(ctxT(t), res, func(context.Context) error {
		calls++
		return backoff.Permanent(&Error{Code: CodeForbidden, Message: "rejected"})
	})
	if e := mustError(t, err, CodeForbidden); calls != 1 || e.Retryable || failuresOf(t, c, res) != 0 {
		t.Fatalf("%+v after %d calls", e, calls)
	}

	calls = 0
	err = c.Retry(ctxT(t), res, func(context.Context) error { calls++; return errors.New("refused") })
	if e := mustError(t, err, CodeNetwork); calls != 4 || !e.Retryable || failuresOf(t, c, res) != 4 {
		t.Fatalf("%+v after %d calls, %d failures; want 4 counted attempts", e, calls, failuresOf(t, c, res))
	}
}

// Every POST, PATCH and DELETE carries its own 32-hex key; no GET (lookups,
// polls) carries one.
func TestEveryMutationCarriesAKeyAndNoGETDoes(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case isLookup(r):
			listOf(w, map[string]any{"id": 9, "name": "pg", "marquee_name": "prod-eu"})
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case r.URL.Path == "/api/playgrounds/pg/operations":
			replyJSON(w, 202, map[string]any{"request_id": "req_k", "status": "queued"})
		case r.URL.Path == "/api/async_requests/req_k":
			replyJSON(w, 200, map[string]any{"status": "success", "result": map[string]any{"id": 9, "name": "pg", "status": "running"}})
		default:
			replyJSON(w, 200, map[string]any{"id": 9, "name": "pg", "status": "running"})
		}
	})
	c, _ := newTestClient(t, srv.URL)
	ctx := ctxT(t)
	calls := []func() error{
		func() error {
			_, _, err := c.Playgrounds.Create(ctx, map[string]any{"name": "pg"}, MutationOptions{}, WaitOptions{})
			return err
		},
		func() error {
			_, _, err := c.Playgrounds.Update(ctx, "pg", map[string]any{"name": "pg"}, MutationOptions{})
			return err
		},
		func() error {
			_, _, err := c.Playgrounds.Action(ctx, "pg", "rollout", false, MutationOptions{}, WaitOptions{})
			return err
		},
		func() error { _, err := c.Playgrounds.Delete(ctx, "pg", MutationOptions{}, WaitOptions{}); return err },
		func() error {
			_, _, err := c.Marquees.Update(ctx, "prod-eu", map[string]any{"port": 22}, MutationOptions{})
			return err
		},
	}
	for i, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	keys := map[string]bool{}
	methods := map[string]bool{}
	gets := 0
	for _, r := range rec.all() {
		key := r.Header.Get("Idempotency-Key")
		if r.Method == http.MethodGet {
			gets++
			if key != "" {
				t.Fatalf("GET %s carried key %q", r.Path, key)
			}
			continue
		}
		if !hexKey.MatchString(key) || keys[key] {
			t.Fatalf("%s %s carried key %q: want a fresh 32-hex key per operation", r.Method, r.Path, key)
		}
		keys[key], methods[r.Method] = true, true
	}
	if len(keys) != len(calls) || !methods["POST"] || !methods["PATCH"] || !methods["DELETE"] || gets == 0 {
		t.Fatalf("%d keys, methods %v, %d GETs", len(keys), methods, gets)
	}
}

// A zero Policy is the contract's: every knob defaults to its number.
func TestClientPolicyDefaultsToTheContract(t *testing.T) {
	c, err := New(Options{BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Policy() != reliability.DefaultPolicy() {
		t.Fatalf("policy %+v, want %+v", c.Policy(), reliability.DefaultPolicy())
	}
}
