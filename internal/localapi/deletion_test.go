package localapi

import (
	"bytes"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// runningPG creates a playground and lets it finish provisioning.
func (e *env) runningPG(name string) map[string]any {
	e.t.Helper()
	pg := e.createPG(name, "web", nil)
	e.clock.Advance(provisionTime)
	if st := e.do("GET", "/api/playgrounds/"+name, nil).json(e.t)["status"]; st != "running" {
		e.t.Fatalf("%s after provisioning: %v", name, st)
	}
	return pg
}

func TestDeleteRunningPlaygroundIsAsync(t *testing.T) {
	e := newEnv(t, Config{})
	pg := e.runningPG("doomed")

	del := e.do("DELETE", "/api/playgrounds/doomed", nil, withIdem("del-doomed-1"))
	expectStatus(t, del, http.StatusAccepted)
	h := del.json(t)
	id, _ := h["request_id"].(string)
	if !strings.HasPrefix(id, "req_") || h["status"] != "queued" || h["status_url"] != "/api/async_requests/"+id {
		t.Fatalf("202 body %s", del.body)
	}
	if del.header.Get("X-Request-Id") != id || del.header.Get("Location") != h["status_url"] {
		t.Fatalf("202 headers %v", del.header)
	}

	// Once the teardown runs the playground shows it, and refuses changes.
	e.clock.Advance(queueTime + 100*time.Millisecond)
	if st := e.do("GET", "/api/playgrounds/doomed", nil).json(t)["status"]; st != "stopping" {
		t.Fatalf("playground during delete: %v", st)
	}
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "running" {
		t.Fatalf("delete operation: %v", st)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/playgrounds/doomed/operations", map[string]any{"action_type": "start"}},
		{"POST", "/api/playgrounds/doomed/operations", map[string]any{"action_type": "rollout", "force": true}},
		{"PATCH", "/api/playgrounds/doomed", map[string]any{"playground": map[string]any{"name": "saved"}}},
		{"POST", "/api/playgrounds/doomed/expiration", map[string]any{"duration_hours": 1}},
	} {
		r := e.do(c.method, c.path, c.body)
		expectStatus(t, r, http.StatusConflict)
		if d := r.errDetails(t); d["reason"] != "operation_in_progress" || d["request_id"] != id {
			t.Fatalf("%s %s during delete: %s", c.method, c.path, r.body)
		}
	}
	// Reads still work.
	expectStatus(t, e.do("GET", "/api/playgrounds/doomed/status", nil), http.StatusOK)

	// The same request again is a replay; a new delete joins the one under way.
	replay := e.do("DELETE", "/api/playgrounds/doomed", nil, withIdem("del-doomed-1"))
	expectStatus(t, replay, http.StatusAccepted)
	if replay.header.Get("X-Idempotent-Replayed") != "true" || !bytes.Equal(replay.body, del.body) {
		t.Fatalf("replay: %v %s", replay.header, replay.body)
	}
	again := e.do("DELETE", "/api/playgrounds/doomed", nil, withIdem("del-doomed-2"))
	expectStatus(t, again, http.StatusAccepted)
	if again.header.Get("X-Idempotent-Replayed") != "" || again.json(t)["request_id"] != id {
		t.Fatalf("second delete: %s", again.body)
	}

	seen, done := e.pollUntil("/api/async_requests/"+id, 500*time.Millisecond)
	if !reflect.DeepEqual(seen, []string{"running", "success"}) {
		t.Fatalf("statuses %v", seen)
	}
	res, _ := done["result"].(map[string]any)
	if res["deleted"] != true || res["name"] != "doomed" || num(res["id"]) != num(pg["id"]) {
		t.Fatalf("result %v", done)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/doomed", nil), http.StatusNotFound)
	expectStatus(t, e.do("DELETE", "/api/playgrounds/doomed", nil), http.StatusNotFound)

	// The cached answer outlives the playground, like any mutation's.
	late := e.do("DELETE", "/api/playgrounds/doomed", nil, withIdem("del-doomed-1"))
	expectStatus(t, late, http.StatusAccepted)
	if late.header.Get("X-Idempotent-Replayed") != "true" || late.json(t)["request_id"] != id {
		t.Fatalf("late replay: %v %s", late.header, late.body)
	}
	if got := e.srv.Stats().Replays; got != 2 {
		t.Fatalf("replays %d, want 2", got)
	}
}

func TestDeleteTakesSecondsScaledBySpeed(t *testing.T) {
	e := newEnv(t, Config{Speed: 10}) // 2.5 s of platform time → 250 ms
	e.createPG("quick", "web", nil)   // still creating: containers are starting
	id := e.do("DELETE", "/api/playgrounds/quick", nil).json(t)["request_id"].(string)
	e.clock.Advance(249 * time.Millisecond)
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "running" {
		t.Fatalf("at 249ms: %v", st)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/quick", nil), http.StatusOK)
	e.clock.Advance(time.Millisecond)
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "success" {
		t.Fatalf("at 250ms: %v", st)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/quick", nil), http.StatusNotFound)
}

func TestDeleteWithNothingRunningIs204(t *testing.T) {
	e := newEnv(t, Config{})
	e.runningPG("halted")
	stop := e.do("POST", "/api/playgrounds/halted/operations", map[string]any{"action_type": "stop"})
	expectStatus(t, stop, http.StatusAccepted)
	e.pollUntil(stop.json(t)["status_url"].(string), 500*time.Millisecond)

	e.createPG("crashed", "broken", nil)
	e.clock.Advance(provisionTime)
	roll := e.do("POST", "/api/playgrounds/crashed/operations", map[string]any{"action_type": "rollout"})
	e.pollUntil(roll.json(t)["status_url"].(string), 500*time.Millisecond)

	for name, status := range map[string]string{"halted": "stopped", "crashed": "error"} {
		if st := e.do("GET", "/api/playgrounds/"+name, nil).json(t)["status"]; st != status {
			t.Fatalf("%s: %v, want %s", name, st, status)
		}
		del := e.do("DELETE", "/api/playgrounds/"+name, nil)
		expectStatus(t, del, http.StatusNoContent)
		if len(del.body) != 0 {
			t.Fatalf("204 with body %q", del.body)
		}
		expectStatus(t, e.do("GET", "/api/playgrounds/"+name, nil), http.StatusNotFound)
	}
}

// The 202 of a delete follows the configured status URL style and async shape.
func TestDeleteHandleFollowsAsyncStyle(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		url  func(base, id string) string
	}{
		{"alt", Config{StatusURLStyle: "alt"}, func(_, id string) string { return "/api/operations/" + id + "/state" }},
		{"absolute", Config{StatusURLStyle: "absolute"}, func(base, id string) string { return base + "/api/async_requests/" + id }},
		{"legacy", Config{LegacyAsync: true}, func(_, id string) string { return "/api/async_requests/" + id }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.cfg)
			e.runningPG("styled")
			h := e.do("DELETE", "/api/playgrounds/styled", nil).json(t)
			id, _ := h["request_id"].(string)
			if h["status_url"] != c.url(e.hs.URL, id) {
				t.Fatalf("status_url %v", h["status_url"])
			}
			_, done := e.pollUntil(h["status_url"].(string), 500*time.Millisecond)
			res := done
			if !c.cfg.LegacyAsync {
				res, _ = done["result"].(map[string]any)
			}
			if done["status"] != "success" || res["deleted"] != true || res["name"] != "styled" {
				t.Fatalf("final status %v", done)
			}
		})
	}
}

func TestAsyncCreateAnswers202WithThePlayground(t *testing.T) {
	sync := newEnv(t, Config{})
	want := sync.createPG("same-shape", "web", nil)

	e := newEnv(t, Config{AsyncCreate: true})
	body := map[string]any{"playground": map[string]any{"name": "later", "playspec_id": "web", "marquee_id": "prod-eu"}}
	r := e.do("POST", "/api/playgrounds", body, withIdem("create-later"))
	expectStatus(t, r, http.StatusAccepted)
	h := r.json(t)
	id, _ := h["request_id"].(string)
	if h["status"] != "queued" || h["status_url"] != "/api/async_requests/"+id || r.header.Get("Location") != h["status_url"] {
		t.Fatalf("202 %v %v", h, r.header)
	}

	// A retry with the same key is a replay: one playground, one 202.
	replay := e.do("POST", "/api/playgrounds", body, withIdem("create-later"))
	if replay.status != http.StatusAccepted || replay.header.Get("X-Idempotent-Replayed") != "true" || !bytes.Equal(replay.body, r.body) {
		t.Fatalf("replay %d %v %s", replay.status, replay.header, replay.body)
	}
	if n := e.srv.Stats().Creates["later"]; n != 1 {
		t.Fatalf("created %d times", n)
	}

	seen, done := e.pollUntil(h["status_url"].(string), 100*time.Millisecond)
	if !reflect.DeepEqual(seen, []string{"queued", "running", "success"}) {
		t.Fatalf("statuses %v", seen)
	}
	res, _ := done["result"].(map[string]any)
	if res["name"] != "later" || res["status"] != "creating" || res["marquee_name"] != "prod-eu" || res["playspec_name"] != "web" {
		t.Fatalf("result %v", done)
	}
	if got, exp := keysOf(res), keysOf(want); !reflect.DeepEqual(got, exp) {
		t.Fatalf("result fields %v, a 201 body has %v", got, exp)
	}
	e.clock.Advance(provisionTime)
	if st := e.do("GET", "/api/playgrounds/later", nil).json(t)["status"]; st != "running" {
		t.Fatalf("after provisioning: %v", st)
	}

	// Invalid input is still refused at once.
	bad := e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "later", "playspec_id": "web"}})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
