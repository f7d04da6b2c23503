package client

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// asyncServer answers POST /api/playgrounds/pg/operations with 202 and the
// given status_url, and serves polls with the scripted answers (the last
// repeats) on any other path.
func asyncServer(t *testing.T, statusURL string, polls []func(w http.ResponseWriter)) (*recorder, string) {
	var n atomic.Int32
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodPost:
			h := map[string]any{"request_id": "req_5c1d", "status": "queued"}
			if statusURL != "" {
				h["status_url"] = statusURL
			}
			replyJSON(w, 202, h)
		default:
			i := int(n.Add(1)) - 1
			if i >= len(polls) {
				i = len(polls) - 1
			}
			polls[i](w)
		}
	})
	return rec, srv.URL
}

func status(v string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) { replyJSON(w, 200, map[string]any{"status": v}) }
}

func body(v string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(v))
	}
}

func TestPollingSurvives503AndResetsAndFollowsStatusURL(t *testing.T) {
	var tt *testing.T = t
	rec, url := asyncServer(t, "/api/operations/req_5c1d/state", []func(http.ResponseWriter){
		status("queued"),
		func(w http.ResponseWriter) { apiError(w, 503, "INTERNAL_ERROR", "busy", nil) },
		func(w http.ResponseWriter) { resetConn(tt, w) },
		status("running"),
		body(`{"status":"success","result":{"id":5,"name":"pg","status":"running"}}`),
	})
	c, env := newTestClient(t, url)
	st, meta, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Status != "running" || meta.Accepted == nil || meta.Accepted.RequestID != "req_5c1d" {
		t.Fatalf("status %+v meta %+v", st, meta)
	}
	var polls, key int
	for _, r := range rec.all() {
		if r.Method == http.MethodGet && !strings.HasPrefix(r.Path, "/api/playgrounds") {
			polls++
			if r.Path != "/api/operations/req_5c1d/state" {
				t.Fatalf("polled %s, want the status_url verbatim", r.Path)
			}
		}
		if r.Method == http.MethodPost && r.Header.Get("Idempotency-Key") == meta.IdempotencyKey {
			key++
		}
	}
	if polls != 5 || key != 1 {
		t.Fatalf("%d polls, %d posts with the key", polls, key)
	}
	if ev := env.events.kinds(EventPoll); len(ev) != 3 || ev[2].Status != "success" || ev[2].RequestID != "req_5c1d" {
		t.Fatalf("poll events %+v", ev)
	}
	if len(env.events.kinds(EventAccepted)) != 1 || len(env.events.kinds(EventRetry)) != 2 {
		t.Fatalf("accepted %d retry %+v", len(env.events.kinds(EventAccepted)), env.events.kinds(EventRetry))
	}
}

func TestPollRetryAfterSetsTheNextInterval(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){
		func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "4")
			replyJSON(w, 200, map[string]any{"status": "running"})
		},
		status("provisioning"), // a status the client does not know is pending
		body(`{"status":"success","result":{"lines":["a","b"]}}`),
	})
	c, env := newTestClient(t, url)
	lines, _, err := c.Playgrounds.Logs(ctxT(t), "pg", "web", 2, MutationOptions{}, WaitOptions{})
	if err != nil || strings.Join(lines, ",") != "a,b" {
		t.Fatalf("%v %v", lines, err)
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 2 || sleeps[0] != 4*time.Second || sleeps[1] != time.Second {
		t.Fatalf("sleeps %v, want [4s 1s]", sleeps)
	}
}

func TestNoWaitReturnsTheHandle(t *testing.T) {
	rec, url := asyncServer(t, "/api/async_requests/req_5c1d", []func(http.ResponseWriter){status("queued")})
	c, _ := newTestClient(t, url)
	st, meta, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{NoWait: true})
	if err != nil || st != nil || meta.Accepted == nil || meta.Accepted.StatusURL != "/api/async_requests/req_5c1d" || meta.StatusCode != 202 {
		t.Fatalf("%+v %+v %v", st, meta, err)
	}
	for _, r := range rec.all() {
		if strings.HasPrefix(r.Path, "/api/async_requests/") {
			t.Fatal("polled with NoWait")
		}
	}
}

func TestAsyncErrorIsTheSameTypedErrorInBothShapes(t *testing.T) {
	cases := []struct {
		name, body, code, msg string
		details               map[string]any
	}{
		{"current", `{"status":"error","code":"PLAYGROUND_BUILD_FAILED","message":"build failed","details":{"step":"build","reason":"image_pull_failed"}}`,
			"PLAYGROUND_BUILD_FAILED", "build failed", map[string]any{"step": "build", "reason": "image_pull_failed"}},
		{"no code", `{"status":"error","message":"it broke","details":{"step":"deploy"}}`,
			CodeRemoteFailed, "it broke", map[string]any{"step": "deploy"}},
		{"legacy string", `{"status":"error","error":"compose failed","error_details":{"step":"compose"},"error_status":500}`,
			CodeRemoteFailed, "compose failed", map[string]any{"step": "compose"}},
		{"legacy code", `{"status":"error","error":"quota","error_code":"QUOTA_EXCEEDED"}`, CodeQuotaExceeded, "quota", nil},
		{"legacy object", `{"status":"error","error":{"code":"MARQUEE_NOT_FUNDED","message":"top up","details":{"marquee":"unpaid"}}}`,
			CodeNotFunded, "top up", map[string]any{"marquee": "unpaid"}},
		{"bare", `{"status":"error"}`, CodeRemoteFailed, "the remote operation failed", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, url := asyncServer(t, "", []func(http.ResponseWriter){status("running"), body(tc.body)})
			c, _ := newTestClient(t, url)
			_, meta, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{})
			e := mustError(t, err, tc.code)
			if !e.Async || e.RequestID != "req_5c1d" || e.Message != tc.msg || e.IdempotencyKey != meta.IdempotencyKey || e.Resource != "playground/pg" {
				t.Fatalf("%+v", e)
			}
			for k, v := range tc.details {
				if e.Details[k] != v {
					t.Fatalf("details %v, want %v", e.Details, tc.details)
				}
			}
			if !strings.HasSuffix(e.Error(), "(request req_5c1d)") {
				t.Fatalf("Error() = %q", e.Error())
			}
			if hasCode(err, CodeNotFunded) != (tc.code == CodeNotFunded) {
				t.Fatalf("hasCode(%s) = %v for %s", CodeNotFunded, hasCode(err, CodeNotFunded), tc.code)
			}
		})
	}
}

func TestLegacySuccessShapeKeepsTopLevelResult(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){body(`{"status":"success","request_id":"req_5c1d","ok":true,"message":"reachable"}`)})
	c, _ := newTestClient(t, url)
	ct, _, err := c.Marquees.TestConnection(ctxT(t), "prod-eu", MutationOptions{}, WaitOptions{})
	if err != nil || !ct.OK || ct.Message != "reachable" {
		t.Fatalf("%+v %v", ct, err)
	}
}

func TestAsyncTimeoutNamesTheRequestID(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){status("running")})
	c, env := newTestClient(t, url)
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{}, WaitOptions{Timeout: 10 * time.Second})
	e := mustError(t, err, CodeAsyncTimeout)
	if e.RequestID != "req_5c1d" || e.Resume == nil || e.Resume.WaitRequestID != "req_5c1d" || strings.Contains(e.Message, "fibe ") || e.Details["status"] != "running" || !IsAsyncTimeout(err) {
		t.Fatalf("%+v", e)
	}
	var last map[string]any
	if err := json.Unmarshal(e.Details["last_status"].(json.RawMessage), &last); err != nil || last["status"] != "running" {
		t.Fatalf("last status %v", e.Details["last_status"])
	}
	var total time.Duration
	for _, d := range env.clock.Sleeps() {
		total += d
	}
	if total != 10*time.Second {
		t.Fatalf("waited %v, want the 10s deadline", total)
	}
}

func TestOpsWaitAndGetByRequestID(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch r.URL.Path {
		case "/api/async_requests/req_1":
			replyJSON(w, 200, map[string]any{"status": "success", "request_id": "req_1", "result": map[string]any{"id": 4}})
		case "/api/async_requests/req_2":
			replyJSON(w, 200, map[string]any{"status": "error", "request_id": "req_2", "code": "X_FAILED"})
		default:
			apiError(w, 404, "RESOURCE_NOT_FOUND", "unknown request", nil)
		}
	})
	c, _ := newTestClient(t, srv.URL)
	res, _, err := c.Async.Wait(ctxT(t), "req_1", WaitOptions{})
	if err != nil || string(res) != `{"id":4}` {
		t.Fatalf("%s %v", res, err)
	}
	st, _, err := c.Async.Get(ctxT(t), "req_2")
	if err != nil || st.Status != "error" || st.Err == nil || st.Err.Code != "X_FAILED" || st.Err.RequestID != "req_2" {
		t.Fatalf("%+v %v", st, err)
	}
	_, _, err = c.Async.Wait(ctxT(t), "req_nope", WaitOptions{})
	if e := mustError(t, err, CodeNotFound); e.AsyncRequestID != "req_nope" || e.Details["async_request_id"] != "req_nope" {
		t.Fatalf("%+v", e)
	}
	if rec.count() != 3 {
		t.Fatalf("%d requests", rec.count())
	}
}

func TestWaitOnAPlaygroundReachingATerminalState(t *testing.T) {
	for _, terminal := range []string{"error", "failed", "destroyed"} {
		t.Run(terminal, func(t *testing.T) {
			var n atomic.Int32
			srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
				if n.Add(1) < 3 {
					replyJSON(w, 200, map[string]any{"id": 8, "name": "broken", "status": "building"})
					return
				}
				replyJSON(w, 200, map[string]any{"id": 8, "name": "broken", "status": terminal,
					"state_reason": "image_pull_failed", "state_reasons": []string{"image_pull_failed"},
					"error_step": "build", "error_step_label": "Build images",
					"build_statuses":      []map[string]any{{"service": "web", "status": "failed", "error": "pull access denied"}},
					"failure_diagnostics": map[string]any{"hint": "check the image name"}})
			})
			c, _ := newTestClient(t, srv.URL)
			st, err := c.Playgrounds.Wait(ctxT(t), "broken", "running", WaitOptions{})
			e := mustError(t, err, CodeTerminalState)
			if st == nil || st.Status != terminal || e.Resource != "playground/broken" || n.Load() != 3 {
				t.Fatalf("%+v %+v after %d polls", st, e, n.Load())
			}
			if e.Details["error_step"] != "build" || e.Details["failure_diagnostics"] == nil || e.Details["build_statuses"] == nil ||
				strings.Join(e.Details["state_reasons"].([]string), ",") != "image_pull_failed" {
				t.Fatalf("details %v", e.Details)
			}
			if want := "playground broken reached status " + terminal + " at step build: image_pull_failed"; e.Message != want {
				t.Fatalf("message %q, want %q", e.Message, want)
			}
		})
	}
}
