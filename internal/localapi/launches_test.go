package localapi

import (
	"net/http"
	"strconv"
	"testing"
)

func TestLaunch(t *testing.T) {
	e := newEnv(t, Config{})
	compose := "services:\n  web:\n    image: nginx:alpine\n"
	r := e.do("POST", "/api/launches", map[string]any{"name": "shop", "compose_yaml": compose, "marquee_id": "local",
		"env_overrides": map[string]any{"A": "1"}})
	expectStatus(t, r, http.StatusCreated)
	res := r.json(t)
	if num(res["playspec_id"]) == 0 || num(res["playground_id"]) == 0 || res["props_created"] == nil {
		t.Fatalf("launch %s", r.body)
	}
	pg := e.do("GET", "/api/playgrounds/"+strconv.FormatInt(num(res["playground_id"]), 10), nil)
	if expectStatus(t, pg, http.StatusOK); pg.json(t)["name"] != "shop" {
		t.Fatalf("playground %s", pg.body)
	}

	r = e.do("POST", "/api/launches", map[string]any{"name": "spec-only", "compose_yaml": compose})
	if expectStatus(t, r, http.StatusCreated); r.json(t)["playground_id"] != nil {
		t.Fatalf("launch without a marquee %s", r.body)
	}
	for _, bad := range []map[string]any{
		{"name": "x1"},
		{"compose_yaml": compose},
		{"name": "x2", "compose_yaml": compose, "repository_url": "https://github.com/a/b"},
		{"name": "shop", "compose_yaml": compose},
		{"name": "x3", "compose_yaml": compose, "marquee_id": "nope"},
		{"name": "x4", "compose_yaml": compose, "create_playground": true},
	} {
		if r := e.do("POST", "/api/launches", bad); r.status != http.StatusUnprocessableEntity {
			t.Errorf("%v: %d %s", bad, r.status, r.body)
		}
	}
	if r := e.do("POST", "/api/launches", map[string]any{"name": "x5", "compose_yaml": compose, "marquee_id": "unpaid"}); r.status != http.StatusPaymentRequired {
		t.Errorf("unfunded marquee: %d", r.status)
	}

	tpl := e.createTemplate("stack", compose)
	r = e.do("POST", templatePath(tpl, "launches"), map[string]any{"marquee_id": "local"})
	expectStatus(t, r, http.StatusCreated)
	if res := r.json(t); res["name"] != "stack-1" || num(res["id"]) != num(res["playground_id"]) || res["status"] == "" {
		t.Fatalf("template launch %s", r.body)
	}
	expectStatus(t, e.do("POST", templatePath(tpl, "launches"), map[string]any{}), http.StatusUnprocessableEntity)
}

// A launch needs launch:write, and a retry under the same key is the
// replay: one playspec, one playground.
func TestLaunchScopeAndReplay(t *testing.T) {
	e := newEnv(t, Config{})
	ro := e.as(e.mint(1, "playspecs:write", "playgrounds:write"))
	body := map[string]any{"name": "once", "compose_yaml": "services:\n  web:\n    image: nginx\n", "marquee_id": "local"}
	if r := ro.do("POST", "/api/launches", body); r.status != http.StatusForbidden {
		t.Fatalf("launch without launch:write: %d %s", r.status, r.body)
	}
	first := e.do("POST", "/api/launches", body, withIdem("launch-once"))
	expectStatus(t, first, http.StatusCreated)
	again := e.do("POST", "/api/launches", body, withIdem("launch-once"))
	if again.header.Get("X-Idempotent-Replayed") != "true" || string(again.body) != string(first.body) {
		t.Fatalf("replay: %v %s", again.header, again.body)
	}
	if n := e.srv.Stats().Creates["once"]; n != 1 {
		t.Fatalf("%d playgrounds created", n)
	}
	r := e.do("POST", "/api/launches", map[string]any{"name": "bad", "compose_yaml": "services: ["})
	if expectStatus(t, r, http.StatusUnprocessableEntity); r.errDetails(t)["compose_yaml"] == nil {
		t.Fatalf("bad compose: %s", r.body)
	}
}
