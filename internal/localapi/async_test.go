package localapi

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRolloutWalksQueuedRunningSuccess(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("app", "web", nil)
	e.clock.Advance(3 * time.Second)

	r := e.do("POST", "/api/playgrounds/app/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	h := r.json(t)
	id, _ := h["request_id"].(string)
	if h["status"] != "queued" || h["status_url"] != "/api/async_requests/"+id || r.header.Get("X-Request-Id") != id {
		t.Fatalf("202 body %v headers %v", h, r.header)
	}
	if r.header.Get("Location") != h["status_url"] {
		t.Fatalf("Location %q", r.header.Get("Location"))
	}

	e.clock.Advance(400 * time.Millisecond)
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "queued" {
		t.Fatalf("at 0.4s: %v", st)
	}
	e.clock.Advance(200 * time.Millisecond)
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "running" {
		t.Fatalf("at 0.6s: %v", st)
	}
	if st := e.do("GET", "/api/playgrounds/app", nil).json(t)["status"]; st != "building" {
		t.Fatalf("playground during rollout: %v", st)
	}
	e.clock.Advance(2800 * time.Millisecond)
	if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "running" {
		t.Fatalf("at 3.4s: %v", st)
	}
	e.clock.Advance(200 * time.Millisecond)
	done := e.do("GET", "/api/async_requests/"+id, nil).json(t)
	if done["status"] != "success" {
		t.Fatalf("at 3.6s: %v", done)
	}
	res := done["result"].(map[string]any)
	if res["name"] != "app" || res["status"] != "running" {
		t.Fatalf("result %v", res)
	}
	if bs := res["build_statuses"].([]any); len(bs) != 3 || bs[0].(map[string]any)["status"] != "success" {
		t.Fatalf("build statuses %v", bs)
	}
	expectStatus(t, e.do("GET", "/api/async_requests/req_unknown", nil), http.StatusNotFound)
}

func TestActionWhileAnotherRunsIs409(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("busy", "web", nil)
	e.createPG("other", "web", nil)
	// An action on a playground still being created is accepted and waits.
	first := e.do("POST", "/api/playgrounds/busy/operations", map[string]any{"action_type": "hard_restart"})
	expectStatus(t, first, http.StatusAccepted)
	firstID := first.json(t)["request_id"]

	second := e.do("POST", "/api/playgrounds/busy/operations", map[string]any{"action_type": "rollout", "force": true})
	expectStatus(t, second, http.StatusConflict)
	d := second.errDetails(t)
	if second.errCode(t) != "CONFLICT" || d["reason"] != "operation_in_progress" || d["request_id"] != firstID {
		t.Fatalf("409 body %s", second.body)
	}
	// Other playgrounds and non-action operations are not blocked.
	expectStatus(t, e.do("POST", "/api/playgrounds/other/operations", map[string]any{"action_type": "stop"}), http.StatusAccepted)
	expectStatus(t, e.do("POST", "/api/playgrounds/busy/status", nil), http.StatusAccepted)

	seen, _ := e.pollUntil("/api/async_requests/"+firstID.(string), 500*time.Millisecond)
	if !reflect.DeepEqual(seen, []string{"queued", "running", "success"}) {
		t.Fatalf("statuses %v", seen)
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/busy/operations", map[string]any{"action_type": "rollout"}), http.StatusAccepted)
}

func TestActionValidation(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("v", "web", nil)
	for _, body := range []map[string]any{{}, {"action_type": "explode"}, {"action_type": 3}, {"action_type": "stop", "force": "yes"}} {
		r := e.do("POST", "/api/playgrounds/v/operations", body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/none/operations", map[string]any{"action_type": "stop"}), http.StatusNotFound)
}

func TestStopStartAndMaintenance(t *testing.T) {
	e := newEnv(t, Config{Speed: 10})
	e.createPG("s", "web", nil)
	run := func(action, wantStatus string) map[string]any {
		t.Helper()
		r := e.do("POST", "/api/playgrounds/s/operations", map[string]any{"action_type": action})
		expectStatus(t, r, http.StatusAccepted)
		_, body := e.pollUntil(r.json(t)["status_url"].(string), 50*time.Millisecond)
		res := body["result"].(map[string]any)
		if body["status"] != "success" || res["status"] != wantStatus {
			t.Fatalf("%s: %v", action, body)
		}
		return res
	}
	run("stop", "stopped")
	run("start", "running")
	if res := run("enable_maintenance", "running"); res["maintenance_enabled"] != true {
		t.Fatalf("maintenance_enabled %v", res["maintenance_enabled"])
	}
	if res := run("disable_maintenance", "running"); res["maintenance_enabled"] != false {
		t.Fatalf("maintenance_enabled %v", res["maintenance_enabled"])
	}
}

func TestBrokenRolloutFailsAtBuild(t *testing.T) {
	e := newEnv(t, Config{Speed: 50})
	e.createPG("bad", "broken", nil)
	r := e.do("POST", "/api/playgrounds/bad/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	seen, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if seen[len(seen)-1] != "error" {
		t.Fatalf("statuses %v", seen)
	}
	details := body["details"].(map[string]any)
	if body["code"] != "PLAYGROUND_BUILD_FAILED" || details["step"] != "build" || details["reason"] != "image_pull_failed" || body["message"] == "" {
		t.Fatalf("error body %v", body)
	}

	st := e.do("GET", "/api/playgrounds/bad/status", nil)
	expectStatus(t, st, http.StatusOK)
	s := st.json(t)
	if s["status"] != "error" || s["error_step"] != "build" || s["error_step_label"] == nil || s["state_reason"] != "image_pull_failed" {
		t.Fatalf("status body %v", s)
	}
	if reasons := s["state_reasons"].([]any); len(reasons) == 0 || reasons[0] != "image_pull_failed" {
		t.Fatalf("state reasons %v", reasons)
	}
	bs := s["build_statuses"].([]any)[0].(map[string]any)
	if bs["service"] != "web" || bs["status"] != "failed" || !strings.Contains(bs["error"].(string), "image_pull_failed") {
		t.Fatalf("build statuses %v", s["build_statuses"])
	}
	if fd := s["failure_diagnostics"].(map[string]any); fd["reason"] != "image_pull_failed" || fd["step"] != "build" {
		t.Fatalf("failure diagnostics %v", fd)
	}
	if ed := s["error_details"].(map[string]any); ed["reason"] != "image_pull_failed" {
		t.Fatalf("error details %v", ed)
	}
	// The plain playground shows the terminal state too.
	if pg := e.do("GET", "/api/playgrounds/bad", nil).json(t); pg["status"] != "error" || pg["error_message"] == nil {
		t.Fatalf("playground %v", pg)
	}
}

func TestLegacyAsyncShape(t *testing.T) {
	e := newEnv(t, Config{LegacyAsync: true, Speed: 50})
	e.createPG("ok", "web", nil)
	e.createPG("bad", "broken", nil)

	r := e.do("POST", "/api/playgrounds/ok/logs", map[string]any{"tail": 3})
	_, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if _, hasResult := body["result"]; hasResult || body["status"] != "success" {
		t.Fatalf("legacy success %v", body)
	}
	if lines, ok := body["lines"].([]any); !ok || len(lines) != 3 {
		t.Fatalf("legacy lines %v", body)
	}

	r = e.do("POST", "/api/playgrounds/bad/operations", map[string]any{"action_type": "rollout"})
	_, body = e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if body["status"] != "error" || body["error_code"] != "PLAYGROUND_BUILD_FAILED" || body["error"] == nil || body["error_status"] == nil {
		t.Fatalf("legacy error %v", body)
	}
	if _, hasCode := body["code"]; hasCode {
		t.Fatalf("legacy shape has the newer code field: %v", body)
	}
	if d := body["error_details"].(map[string]any); d["reason"] != "image_pull_failed" {
		t.Fatalf("legacy details %v", d)
	}
}

func TestStatusURLStyles(t *testing.T) {
	for _, style := range []string{"", "alt", "absolute"} {
		t.Run("style="+style, func(t *testing.T) {
			e := newEnv(t, Config{StatusURLStyle: style, Speed: 50})
			e.createPG("p", "web", nil)
			r := e.do("POST", "/api/playgrounds/p/operations", map[string]any{"action_type": "rollout"})
			h := r.json(t)
			id, u := h["request_id"].(string), h["status_url"].(string)
			switch style {
			case "":
				if u != "/api/async_requests/"+id {
					t.Fatalf("status_url %q", u)
				}
			case "alt":
				if strings.Contains(u, "/api/async_requests/") || !strings.HasPrefix(u, "/") {
					t.Fatalf("alt status_url %q", u)
				}
			case "absolute":
				if u != e.hs.URL+"/api/async_requests/"+id {
					t.Fatalf("absolute status_url %q (server %s)", u, e.hs.URL)
				}
			}
			seen, _ := e.pollUntil(u, 20*time.Millisecond)
			if seen[len(seen)-1] != "success" {
				t.Fatalf("via %s: %v", u, seen)
			}
			// /api/async_requests/<id> answers in every style.
			if st := e.do("GET", "/api/async_requests/"+id, nil).json(t)["status"]; st != "success" {
				t.Fatalf("canonical URL: %v", st)
			}
		})
	}
	if _, err := New(Config{StatusURLStyle: "weird"}); err == nil {
		t.Fatal("unknown style accepted")
	}
}

func TestLogsSnapshot(t *testing.T) {
	e := newEnv(t, Config{Speed: 50})
	e.createPG("l", "web", nil)
	r := e.do("POST", "/api/playgrounds/l/logs", map[string]any{"service": "web", "tail": 5})
	expectStatus(t, r, http.StatusAccepted)
	_, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	lines := body["result"].(map[string]any)["lines"].([]any)
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if !strings.Contains(l.(string), " web | ") {
			t.Fatalf("line %q is not from web", l)
		}
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/l/logs", map[string]any{"service": "nope"}), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/api/playgrounds/l/logs", map[string]any{"tail": 0}), http.StatusUnprocessableEntity)
	// No body at all means every service, last 100 lines.
	r = e.do("POST", "/api/playgrounds/l/logs", nil)
	_, body = e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if n := len(body["result"].(map[string]any)["lines"].([]any)); n != 100 {
		t.Fatalf("default tail gave %d", n)
	}
}

func TestMarqueeConnectionTestAndSSHKey(t *testing.T) {
	e := newEnv(t, Config{Speed: 50})
	r := e.do("POST", "/api/marquees/prod-eu/connection_tests", nil)
	expectStatus(t, r, http.StatusAccepted)
	_, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	res := body["result"].(map[string]any)
	if res["success"] != true || res["message"] == "" || res["error"] != nil {
		t.Fatalf("connection test %v", body)
	}
	expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "gone", "host": "gone.invalid"}}), http.StatusCreated)
	r = e.do("POST", "/api/marquees/gone/connection_tests", nil)
	_, body = e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if res := body["result"].(map[string]any); res["success"] != false || res["error"] == nil {
		t.Fatalf("unreachable host passed: %v", body)
	}

	keys := map[string]bool{}
	for i := 0; i < 2; i++ {
		r = e.do("POST", "/api/marquees/local/ssh_keys", nil)
		expectStatus(t, r, http.StatusAccepted)
		_, body = e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
		k := body["result"].(map[string]any)["public_key"].(string)
		if !strings.HasPrefix(k, "ssh-ed25519 AAAA") {
			t.Fatalf("public key %q", k)
		}
		keys[k] = true
	}
	if len(keys) != 2 {
		t.Fatal("a new key request returned the same key")
	}
	expectStatus(t, e.do("POST", "/api/marquees/nope/ssh_keys", nil), http.StatusNotFound)
}

func TestUnfundedMarqueeRefusesWork(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("paid", "web", nil)
	// The marquee's payment lapses: a month and a day later.
	e.clock.Advance(32 * 24 * time.Hour)
	r := e.do("POST", "/api/playgrounds/paid/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusPaymentRequired)
	if r.errCode(t) != "MARQUEE_NOT_FUNDED" || r.errDetails(t)["marquee"] != "local" {
		t.Fatalf("402 body %s", r.body)
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/paid/expiration", map[string]any{"duration_hours": 1}), http.StatusPaymentRequired)
}

func TestDeletedPlaygroundFailsItsOperation(t *testing.T) {
	e := newEnv(t, Config{Speed: 50}) // delete: 10ms queued, 40ms running
	e.createPG("d", "web", nil)
	r := e.do("POST", "/api/playgrounds/d/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	del := e.do("DELETE", "/api/playgrounds/d", nil)
	expectStatus(t, del, http.StatusAccepted)
	delID := del.json(t)["request_id"]

	// The deletion supersedes the rollout at once.
	body := e.do("GET", r.json(t)["status_url"].(string), nil).json(t)
	details, _ := body["details"].(map[string]any)
	if body["status"] != "error" || body["code"] != "CONFLICT" || details["delete_request_id"] != delID {
		t.Fatalf("rollout superseded by the delete: %v", body)
	}

	// Logs asked for near the end come due after the playground is gone.
	e.clock.Advance(40 * time.Millisecond)
	logs := e.do("POST", "/api/playgrounds/d/logs", map[string]any{"tail": 5})
	expectStatus(t, logs, http.StatusAccepted)
	e.pollUntil(del.json(t)["status_url"].(string), 5*time.Millisecond)
	expectStatus(t, e.do("GET", "/api/playgrounds/d", nil), http.StatusNotFound)
	_, body = e.pollUntil(logs.json(t)["status_url"].(string), 5*time.Millisecond)
	if body["status"] != "error" || body["code"] != "RESOURCE_NOT_FOUND" {
		t.Fatalf("logs of a deleted playground: %v", body)
	}
}
