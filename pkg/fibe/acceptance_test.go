package fibe_test

// The acceptance scenarios of the SDK (docs/sdk.md §5): an outside program's
// view, exported names only, against pkg/fibetest.

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

var (
	fast  = fibe.WithPolicy(fibe.Policy{BaseDelay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond})
	quick = fibe.WithPolicy(fibe.Policy{BaseDelay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond,
		PollInterval: 50 * time.Millisecond})
	hex32 = regexp.MustCompile(`^[0-9a-f]{32}$`)
)

func pgp(n, spec, mq string) *fibe.PlaygroundCreateParams {
	return &fibe.PlaygroundCreateParams{Name: n, Playspec: spec, Marquee: mq}
}

// events records what a hook saw.
type events struct {
	mu  sync.Mutex
	all []fibe.Event
}

func (r *events) add(e fibe.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, e)
}

func (r *events) of(k fibe.EventKind) []fibe.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []fibe.Event
	for _, e := range r.all {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func server(t *testing.T, opts ...fibetest.Option) *fibetest.Server {
	srv := fibetest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

func asError(t *testing.T, err error) *fibe.Error {
	t.Helper()
	e, ok := errors.AsType[*fibe.Error](err)
	if !ok {
		t.Fatalf("error %v (%T) is not a *fibe.Error", err, err)
	}
	return e
}

func requests(srv *fibetest.Server, route string) map[string]int {
	m := srv.Stats().Requests[route]
	if m == nil {
		m = map[string]int{}
	}
	return m
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func wantRequests(t *testing.T, srv *fibetest.Server, route string, want map[string]int) {
	t.Helper()
	if got := requests(srv, route); !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %v, want %v", route, got, want)
	}
}

// 1. A create whose answer is lost after it committed is retried with the
// same key and answered by the replay: one playground.
func TestAcceptance01ReplayUnderCommitThen502(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithChaos("commit-then-502=1"))
	var ev events
	c := srv.Client(fast, fibe.WithEventHook(ev.add))
	pg, resp, err := c.Playgrounds.Create(ctxT(t), pgp("s1", "web", "local"))
	if err != nil {
		t.Fatal(err)
	}
	if pg.Name != "s1" || !resp.Replayed() || !hex32.MatchString(resp.IdempotencyKey()) {
		t.Fatalf("pg %+v, replayed %v, key %q", pg, resp.Replayed(), resp.IdempotencyKey())
	}
	st := srv.Stats()
	if st.Creates["s1"] != 1 || st.Mutations != 1 || st.Replays != 1 {
		t.Fatalf("creates %d, mutations %d, replays %d", st.Creates["s1"], st.Mutations, st.Replays)
	}
	wantRequests(t, srv, "POST /api/playgrounds", map[string]int{"502": 1, "201": 1})
	if n, m := len(ev.of(fibe.EventRetry)), len(ev.of(fibe.EventReplay)); n != 1 || m != 1 {
		t.Fatalf("%d retries, %d replays seen", n, m)
	}
}

// 2. A lost answer without retries leaves the outcome unknown; calling
// again reuses the key (the journal), or the caller's own key.
func TestAcceptance02LostAnswerFinishedByCallingAgain(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithChaos("commit-then-502=1"))
	var ev events
	c := srv.Client(fibe.WithPolicy(fibe.Policy{MaxRetries: fibe.NoRetries}), fibe.WithEventHook(ev.add))
	ctx := ctxT(t)
	_, _, err := c.Playgrounds.Create(ctx, pgp("s2", "web", "local"))
	e := asError(t, err)
	if !fibe.IsUnavailable(err) || !fibe.IsOutcomeUnknown(err) || !fibe.IsRetryable(err) || e.Status != 502 || e.Code != fibe.CodeInternalError {
		t.Fatalf("first create: %+v", e)
	}
	if !strings.HasPrefix(err.Error(), "INTERNAL_ERROR: ") || !strings.Contains(err.Error(), "(request req_") {
		t.Fatalf("Error() = %q", err.Error())
	}
	k := e.IdempotencyKey
	if !hex32.MatchString(k) {
		t.Fatalf("key %q", k)
	}
	if err := srv.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	_, resp, err := c.Playgrounds.Create(ctx, pgp("s2", "web", "local"))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Replayed() || resp.IdempotencyKey() != k {
		t.Fatalf("second create: replayed %v, key %q, want %q", resp.Replayed(), resp.IdempotencyKey(), k)
	}
	reuse := ev.of(fibe.EventKeyReuse)
	if len(reuse) != 1 || reuse[0].IdempotencyKey != k {
		t.Fatalf("key reuse events %+v", reuse)
	}
	if n := srv.Stats().Creates["s2"]; n != 1 {
		t.Fatalf("s2 created %d times", n)
	}

	kctx := fibe.WithIdempotencyKey(ctx, "ci-42-create")
	_, r1, err := c.Playgrounds.Create(kctx, pgp("s2b", "web", "local"))
	if err != nil {
		t.Fatal(err)
	}
	_, r2, err := c.Playgrounds.Create(kctx, pgp("s2b", "web", "local"))
	if err != nil {
		t.Fatal(err)
	}
	if r1.IdempotencyKey() != "ci-42-create" || r2.IdempotencyKey() != "ci-42-create" || !r2.Replayed() || r1.Replayed() {
		t.Fatalf("keys %q %q, replayed %v %v", r1.IdempotencyKey(), r2.IdempotencyKey(), r1.Replayed(), r2.Replayed())
	}
	if n := srv.Stats().Creates["s2b"]; n != 1 {
		t.Fatalf("s2b created %d times", n)
	}

	before := srv.Stats()
	_, _, err = c.Playgrounds.Create(fibe.WithIdempotencyKey(ctx, "has space"), pgp("s2c", "web", "local"))
	e = asError(t, err)
	if !fibe.IsValidation(err) || e.Code != fibe.CodeInvalidArgument || e.Details["field"] != "idempotency_key" {
		t.Fatalf("bad key: %+v", e)
	}
	if after := srv.Stats(); !reflect.DeepEqual(before, after) {
		t.Fatalf("a refused key sent something: %+v → %+v", before, after)
	}
}

func checkBrokenRollout(t *testing.T, st *fibe.PlaygroundStatus, err error) {
	t.Helper()
	if st != nil {
		t.Fatalf("status %+v with the error", st)
	}
	e := asError(t, err)
	if !fibe.IsPlaygroundTerminal(err) || !fibe.IsRemoteFailed(err) || !e.Async || e.Code != fibe.CodePlaygroundBuildFailed {
		t.Fatalf("rollout error %+v", e)
	}
	if e.Details["step"] != "build" || e.Details["reason"] != "image_pull_failed" || e.Details["status"] != "error" {
		t.Fatalf("details %v", e.Details)
	}
	if !strings.HasPrefix(e.OperationID, "req_") || fibe.IsRetryable(err) || fibe.IsOutcomeUnknown(err) {
		t.Fatalf("operation %q, retryable %v, unknown %v", e.OperationID, e.Retryable, e.OutcomeUnknown)
	}
}

// 3. A broken build fails the rollout with the server's code and what
// failed; waiting on the playground sees its terminal status.
func TestAcceptance03BrokenBuild(t *testing.T) {
	t.Parallel()
	for _, legacy := range []bool{false, true} {
		opts := []fibetest.Option{fibetest.WithSpeed(10)}
		if legacy {
			opts = append(opts, fibetest.WithLegacyAsync())
		}
		srv := server(t, opts...)
		c := srv.Client(quick)
		ctx := ctxT(t)
		if _, _, err := c.Playgrounds.Create(ctx, pgp("b3", "broken", "local")); err != nil {
			t.Fatal(err)
		}
		st, _, err := c.Playgrounds.Rollout(ctx, "b3")
		checkBrokenRollout(t, st, err)
		if legacy {
			continue
		}
		st, err = c.Playgrounds.Wait(ctx, "b3", "running")
		e := asError(t, err)
		if st == nil || st.Status != "error" || e.Code != fibe.CodePlaygroundTerminalState || e.Details["error_step"] != "build" {
			t.Fatalf("wait: %+v, %+v", st, e)
		}
		builds, ok := e.Details["build_statuses"].([]any)
		found := false
		for _, b := range builds {
			m, _ := b.(map[string]any)
			found = found || (m["service"] == "web" && m["status"] == "failed")
		}
		if !ok || !found {
			t.Fatalf("build_statuses %#v", e.Details["build_statuses"])
		}
	}
}

// 4. A marquee not paid for: 402, not retried, classified.
func TestAcceptance04NotFunded(t *testing.T) {
	t.Parallel()
	srv := server(t)
	c := srv.Client()
	_, _, err := c.Playgrounds.Create(ctxT(t), pgp("s4", "web", "unpaid"))
	e := asError(t, err)
	if !fibe.IsNotFunded(err) || fibe.IsRetryable(err) || fibe.IsOutcomeUnknown(err) || e.Status != 402 || e.Details["marquee"] != "unpaid" {
		t.Fatalf("%+v", e)
	}
	if want := "MARQUEE_NOT_FUNDED: " + e.Message + " (request " + e.RequestID + ")"; err.Error() != want {
		t.Fatalf("Error() = %q, want %q", err.Error(), want)
	}
	if !errors.Is(err, &fibe.Error{Code: fibe.CodeMarqueeNotFunded}) || errors.Is(err, &fibe.Error{Code: fibe.CodeConflict}) {
		t.Fatal("errors.Is does not compare codes")
	}
	wantRequests(t, srv, "POST /api/playgrounds", map[string]int{"402": 1})
}

// 5. A 429's Retry-After is waited exactly, and kept on the error.
func TestAcceptance05RetryAfterWaitedExactly(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithChaos("429=1"))
	var (
		once  sync.Once
		first fibe.Event
	)
	c := srv.Client(fibe.WithEventHook(func(e fibe.Event) {
		if e.Kind == fibe.EventRetry {
			once.Do(func() {
				first = e
				if err := srv.SetChaos(""); err != nil {
					t.Error(err)
				}
			})
		}
	}))
	start := time.Now()
	if _, _, err := c.Me.Get(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < time.Second {
		t.Fatalf("answered after %s, before the Retry-After", took)
	}
	if first.Delay != time.Second {
		t.Fatalf("retry delay %s, want 1s", first.Delay)
	}
	wantRequests(t, srv, "GET /api/me", map[string]int{"429": 1, "200": 1})

	srv2 := server(t, fibetest.WithChaos("429=1"))
	c2 := srv2.Client(fibe.WithPolicy(fibe.Policy{MaxRetries: 2}))
	start = time.Now()
	_, _, err := c2.Me.Get(ctxT(t))
	e := asError(t, err)
	if !fibe.IsRateLimited(err) || !fibe.IsRetryable(err) || e.Status != 429 || e.RetryAfter != time.Second {
		t.Fatalf("%+v", e)
	}
	wantRequests(t, srv2, "GET /api/me", map[string]int{"429": 3})
	if took := time.Since(start); took < 2*time.Second {
		t.Fatalf("gave up after %s", took)
	}
}

// 6. The rate ledger waits for the window instead of earning 429s.
func TestAcceptance06LedgerPaces(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithRateLimit(5, 2*time.Second))
	var ev events
	c := srv.Client(fibe.WithEventHook(ev.add))
	ctx := ctxT(t)
	var last *fibe.Response
	for i := range 12 {
		_, resp, err := c.Me.Get(ctx)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		last = resp
	}
	wantRequests(t, srv, "GET /api/me", map[string]int{"200": 12})
	if len(ev.of(fibe.EventRateWait)) < 1 {
		t.Fatal("no rate wait")
	}
	rl, ok := c.RateLimit()
	if !ok || rl.Limit != 5 || rl.Remaining < 0 || rl.Remaining > 5 {
		t.Fatalf("RateLimit() = %+v, %v", rl, ok)
	}
	if rl, ok := last.RateLimit(); !ok || rl.Limit != 5 {
		t.Fatalf("last answer's rate limit %+v, %v", rl, ok)
	}
}

// 7. A dead marquee opens its own breaker, and only its own.
func TestAcceptance07BreakerPerMarquee(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithChaos("outage=marquee/prod-eu@0s+1h"))
	var ev events
	c := srv.Client(fast, fibe.WithEventHook(ev.add))
	ctx := ctxT(t)
	const route = "GET /api/marquees/{id}"
	_, _, err := c.Marquees.Get(ctx, "prod-eu")
	e := asError(t, err)
	if !fibe.IsUnavailable(err) || !fibe.IsRetryable(err) || e.Resource != "marquee/prod-eu" {
		t.Fatalf("first: %+v", e)
	}
	for i := range 2 {
		_, _, err = c.Marquees.Get(ctx, "prod-eu")
		e = asError(t, err)
		if !fibe.IsCircuitOpen(err) || e.Resource != "marquee/prod-eu" || !strings.Contains(err.Error(), "marquee/prod-eu") ||
			e.Status != 0 || e.RetryAfter <= 0 || e.RetryAfter > 30*time.Second {
			t.Fatalf("call %d: %+v", i+2, e)
		}
	}
	if n := sum(requests(srv, route)); n != 5 {
		t.Fatalf("%d requests sent, want 5", n)
	}
	var opened int
	for _, b := range ev.of(fibe.EventBreaker) {
		if b.BreakerState == "open" {
			opened++
		}
	}
	if opened != 1 {
		t.Fatalf("%d breaker openings seen", opened)
	}
	if _, _, err := c.Marquees.Get(ctx, "local"); err != nil {
		t.Fatal(err)
	}
	list, err := c.Breakers()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range list {
		found = found || (b.Resource == "marquee/prod-eu" && b.State == "open")
	}
	if !found {
		t.Fatalf("breakers %+v", list)
	}
	if err := c.ResetBreaker("marquee/prod-eu"); err != nil {
		t.Fatal(err)
	}
	_, _, _ = c.Marquees.Get(ctx, "prod-eu")
	if n := sum(requests(srv, route)); n <= 5 {
		t.Fatal("nothing sent after the reset")
	}
}

// 8. A 202 is waited on; NoWait hands back the handle; a deadline ends
// the wait and the operation can be looked at; status_url is followed.
func TestAcceptance08Accepted(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	t.Run("wait and handle", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(10))
		c := srv.Client(quick)
		if _, _, err := c.Playgrounds.Create(ctx, pgp("w8", "web", "local")); err != nil {
			t.Fatal(err)
		}
		st, _, err := c.Playgrounds.Rollout(ctx, "w8")
		if err != nil || st.Status != "running" {
			t.Fatalf("rollout: %+v, %v", st, err)
		}
		st, resp, err := c.Playgrounds.Rollout(ctx, "w8", fibe.NoWait())
		if st != nil || err != nil {
			t.Fatalf("no-wait rollout: %+v, %v", st, err)
		}
		op := resp.Operation()
		if op == nil || !strings.HasPrefix(op.ID, "req_") || (op.Status != "queued" && op.Status != "running") {
			t.Fatalf("handle %+v", op)
		}
		done, _, err := c.Operations.Wait(ctx, op.ID)
		if err != nil || done.Status != "success" {
			t.Fatalf("wait: %+v, %v", done, err)
		}
		var ps fibe.PlaygroundStatus
		if err := done.Decode(&ps); err != nil || ps.Status != "running" {
			t.Fatalf("result %+v, %v", ps, err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(0.05))
		c := srv.Client(quick)
		if _, _, err := c.Playgrounds.Create(ctx, pgp("w8", "web", "local")); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, _, err := c.Playgrounds.Rollout(ctx, "w8", fibe.WaitTimeout(2*time.Second))
		took := time.Since(start)
		e := asError(t, err)
		if !fibe.IsAsyncTimeout(err) || !strings.HasPrefix(e.OperationID, "req_") || took > 3500*time.Millisecond {
			t.Fatalf("after %s: %+v", took, e)
		}
		op, _, err := c.Operations.Get(ctx, e.OperationID)
		if err != nil || (op.Status != "queued" && op.Status != "running") {
			t.Fatalf("operation %+v, %v", op, err)
		}
	})
	t.Run("status_url", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(10), fibetest.WithStatusURL("alt"))
		c := srv.Client(quick)
		if _, _, err := c.Playgrounds.Create(ctx, pgp("w8", "web", "local")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Playgrounds.Rollout(ctx, "w8"); err != nil {
			t.Fatal(err)
		}
		if n := sum(requests(srv, "GET /api/operations/{id}/state")); n == 0 {
			t.Fatal("no poll of the status_url")
		}
		if n := sum(requests(srv, "GET /api/async_requests/{id}")); n != 0 {
			t.Fatalf("%d polls of /api/async_requests", n)
		}
	})
}

// 9. All is lazy, pages as asked and copies its options; a bad filter is
// one (nil, err).
func TestAcceptance09Iteration(t *testing.T) {
	t.Parallel()
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	for _, n := range []string{"it-0", "it-1", "it-2", "it-3", "it-4", "it-5", "it-6"} {
		if _, _, err := c.Playgrounds.Create(ctx, pgp(n, "web", "local")); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.Playgrounds.Create(ctx, pgp("other", "web", "prod-eu")); err != nil {
		t.Fatal(err)
	}
	const route = "GET /api/playgrounds"
	o := &fibe.PlaygroundListOptions{ListOptions: fibe.ListOptions{PerPage: 3, Search: "it-"}}
	saved := *o
	before := requests(srv, route)["200"]
	names := map[string]bool{}
	for pg, err := range c.Playgrounds.All(ctx, o) {
		if err != nil {
			t.Fatal(err)
		}
		names[pg.Name] = true
	}
	if len(names) != 7 || requests(srv, route)["200"]-before != 3 || *o != saved {
		t.Fatalf("names %v, %d requests, options %+v", names, requests(srv, route)["200"]-before, *o)
	}
	before = requests(srv, route)["200"]
	n := 0
	for _, err := range c.Playgrounds.All(ctx, o) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 2 {
			break
		}
	}
	if got := requests(srv, route)["200"] - before; got != 1 {
		t.Fatalf("breaking after 2 items cost %d requests", got)
	}
	list, resp, err := c.Playgrounds.List(ctx, o)
	if err != nil || len(list) != 3 || resp.Page() != (fibe.ListMeta{Page: 1, PerPage: 3, Total: 7}) {
		t.Fatalf("list: %d items, %+v, %v", len(list), resp.Page(), err)
	}
	pairs := 0
	for pg, err := range c.Playgrounds.All(ctx, &fibe.PlaygroundListOptions{ListOptions: fibe.ListOptions{Status: "sleeping"}}) {
		pairs++
		e := asError(t, err)
		if _, ok := e.Details["status"]; pg != nil || !fibe.IsValidation(err) || e.Status != 422 || !ok {
			t.Fatalf("pair %v, %+v", pg, e)
		}
	}
	if pairs != 1 {
		t.Fatalf("%d pairs", pairs)
	}
}

// eventually waits for cond, at most 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 5s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// followed takes n lines of a followed log and checks their order.
func followed(t *testing.T, c *fibe.Client, ref string, n int) {
	t.Helper()
	var prev int64
	got := 0
	for line, err := range c.Playgrounds.FollowLogs(ctxT(t), ref, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if got > 0 && line.Seq != prev+1 {
			t.Fatalf("seq %d after %d", line.Seq, prev)
		}
		prev = line.Seq
		if got++; got == n {
			break
		}
	}
	if got != n {
		t.Fatalf("%d lines", got)
	}
}

func runningPlayground(t *testing.T, srv *fibetest.Server, c *fibe.Client, name string) {
	t.Helper()
	ctx := ctxT(t)
	if _, _, err := c.Playgrounds.Create(ctx, pgp(name, "web", "local")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Playgrounds.Rollout(ctx, name); err != nil {
		t.Fatal(err)
	}
}

// 10. A followed log survives session_expired without losing or
// repeating a line; the end of ctx ends it with one CANCELLED.
func TestAcceptance10LogsSurviveSessionExpired(t *testing.T) {
	t.Parallel()
	t.Run("once", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(10))
		c := srv.Client(quick)
		runningPlayground(t, srv, c, "l11")
		if err := srv.SetChaos("cable-expire=once"); err != nil {
			t.Fatal(err)
		}
		followed(t, c, "l11", 10)
		eventually(t, "one expiry, two subscriptions", func() bool {
			s := srv.Stats().Streams
			return s.Expiries == 1 && s.Subscriptions == 2
		})
		if n := sum(requests(srv, "GET /api/cable_url")); n != 2 {
			t.Fatalf("%d cable URLs fetched", n)
		}
	})
	t.Run("burst", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(10))
		c := srv.Client(quick)
		runningPlayground(t, srv, c, "l11")
		if err := srv.SetChaos("cable-expire-burst=3"); err != nil {
			t.Fatal(err)
		}
		followed(t, c, "l11", 10)
		eventually(t, "three expiries, two subscriptions", func() bool {
			s := srv.Stats().Streams
			return s.Expiries == 3 && s.Subscriptions == 2
		})
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		srv := server(t, fibetest.WithSpeed(10))
		c := srv.Client(quick)
		runningPlayground(t, srv, c, "l11")
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		var errs []error
		for line, err := range c.Playgrounds.FollowLogs(ctx, "l11", nil) {
			if err != nil {
				if line != nil {
					t.Fatalf("line %+v with the error", line)
				}
				errs = append(errs, err)
			}
		}
		if len(errs) != 1 || !fibe.IsCancelled(errs[0]) || !errors.Is(errs[0], context.DeadlineExceeded) {
			t.Fatalf("errors %v", errs)
		}
	})
}

// 11. Cancelling mid-wait returns at once with the operation to resume,
// and nothing more is sent.
func TestAcceptance11CancelMidWait(t *testing.T) {
	t.Parallel()
	srv := server(t, fibetest.WithSpeed(4))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		once     sync.Once
		mu       sync.Mutex
		cancelAt time.Time
	)
	c := srv.Client(quick, fibe.WithEventHook(func(e fibe.Event) {
		if e.Kind == fibe.EventPoll {
			once.Do(func() {
				mu.Lock()
				cancelAt = time.Now()
				mu.Unlock()
				cancel()
			})
		}
	}))
	if _, _, err := c.Playgrounds.Create(ctx, pgp("c12", "web", "local")); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Playgrounds.Rollout(ctx, "c12")
	returned := time.Now()
	e := asError(t, err)
	mu.Lock()
	at := cancelAt
	mu.Unlock()
	if at.IsZero() || returned.Sub(at) > time.Second {
		t.Fatalf("returned %s after the cancel", returned.Sub(at))
	}
	if !fibe.IsCancelled(err) || !errors.Is(err, context.Canceled) || !strings.HasPrefix(e.OperationID, "req_") {
		t.Fatalf("%+v", e)
	}
	before := srv.Stats().Requests
	time.Sleep(2 * time.Second) // the spec's quiet period: nothing may be sent in it
	if after := srv.Stats().Requests; !reflect.DeepEqual(before, after) {
		t.Fatalf("requests after the cancel: %v → %v", before, after)
	}
	op, _, err := c.Operations.Wait(context.Background(), e.OperationID)
	if err != nil || op.Status != "success" {
		t.Fatalf("resume: %+v, %v", op, err)
	}
}
