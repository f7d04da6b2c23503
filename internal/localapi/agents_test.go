package localapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func (e *env) createAgent(obj map[string]any, opts ...reqOpt) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/agents", map[string]any{"agent": obj}, opts...)
	expectStatus(e.t, r, http.StatusCreated)
	return r.json(e.t)
}

func TestAgentsCRUD(t *testing.T) {
	e := newEnv(t, Config{})
	a := e.createAgent(map[string]any{"name": "reviewer", "provider": "claude-code", "description": "reads diffs"})
	id := num(a["id"])
	if a["provider"] != "claude-code" || a["provider_label"] == "" || a["status"] != "stopped" {
		t.Fatalf("created: %v", a)
	}
	for _, k := range []string{"effective_memory_limit", "effective_cpu_limit", "effective_cli_version", "effective_prompt",
		"effective_provider_args", "effective_skill_toggles", "mounted_files", "api_key_id", "sync_enabled"} {
		if _, ok := a[k]; !ok {
			t.Errorf("created agent has no %s", k)
		}
	}
	if a["effective_memory_limit"] != "2g" || a["prompt"] != nil {
		t.Errorf("defaults: effective_memory_limit %v, prompt %v", a["effective_memory_limit"], a["prompt"])
	}

	// By id and by name; the description persists.
	for _, ref := range []string{"reviewer", "1"} {
		got := e.do("GET", "/api/agents/"+ref, nil)
		expectStatus(t, got, http.StatusOK)
		if g := got.json(t); num(g["id"]) != id || g["description"] != "reads diffs" {
			t.Errorf("GET %s: %v", ref, g)
		}
	}

	// Update: sync_enabled is echoed, a rename context is accepted.
	up := e.do("PATCH", "/api/agents/1", map[string]any{
		"agent":                map[string]any{"name": "reviewer-2", "sync_enabled": true, "memory_limit": "4g"},
		"agent_rename_context": map[string]any{"conversation_client_id": "c1", "conversation_title": "t"},
	})
	expectStatus(t, up, http.StatusOK)
	if u := up.json(t); u["name"] != "reviewer-2" || u["sync_enabled"] != true || u["effective_memory_limit"] != "4g" {
		t.Errorf("updated: %v", u)
	}
	bad := e.do("PATCH", "/api/agents/1", map[string]any{"agent": map[string]any{"provider": "gemini"}})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	if _, ok := bad.errDetails(t)["provider"]; !ok {
		t.Errorf("provider change: %s", bad.body)
	}

	// A copy: a new id, the same provider and settings, a free name.
	for i, want := range []string{"reviewer-2-copy", "reviewer-2-copy-2"} {
		cp := e.do("POST", "/api/agents/reviewer-2/copies", nil)
		expectStatus(t, cp, http.StatusCreated)
		c := cp.json(t)
		if c["name"] != want || num(c["id"]) == id || c["provider"] != "claude-code" || c["memory_limit"] != "4g" {
			t.Errorf("copy %d: %v", i, c)
		}
	}

	rs := e.do("GET", "/api/agents/reviewer-2/runtime_status", nil)
	expectStatus(t, rs, http.StatusOK)
	if s := rs.json(t); num(s["id"]) != id || s["status"] != "stopped" || s["runtime_reachable"] != false || s["queue_count"] != float64(0) {
		t.Errorf("runtime status: %v", s)
	}

	expectStatus(t, e.do("DELETE", "/api/agents/1", nil), http.StatusNoContent)
	gone := e.do("GET", "/api/agents/1", nil)
	expectStatus(t, gone, http.StatusNotFound)
	if gone.errCode(t) != "RESOURCE_NOT_FOUND" || gone.header.Get("X-Request-Id") == "" {
		t.Errorf("after delete: %s %v", gone.body, gone.header)
	}
	expectStatus(t, e.do("DELETE", "/api/agents/999999", nil), http.StatusNotFound)
}

func TestAgentsValidation(t *testing.T) {
	e := newEnv(t, Config{})
	for _, p := range []string{"gemini", "antigravity", "claude-code", "openai-codex", "opencode", "cursor"} {
		if a := e.createAgent(map[string]any{"name": "p-" + p, "provider": p}); a["provider"] != p || a["provider_label"] == "" {
			t.Errorf("provider %s: %v", p, a)
		}
	}
	for name, c := range map[string]struct {
		obj   map[string]any
		field string
	}{
		"unknown provider": {map[string]any{"name": "x", "provider": "bogus"}, "provider"},
		"no provider":      {map[string]any{"name": "x"}, "provider"},
		"empty name":       {map[string]any{"name": "", "provider": "gemini"}, "name"},
		"blank name":       {map[string]any{"name": "   ", "provider": "gemini"}, "name"},
		"1000 characters":  {map[string]any{"name": strings.Repeat("a", 1000), "provider": "gemini"}, "name"},
		"a number as name": {map[string]any{"name": 7, "provider": "gemini"}, "name"},
		"a bad mode":       {map[string]any{"name": "x", "provider": "gemini", "mode": "sideways"}, "mode"},
		"a bad toggle":     {map[string]any{"name": "x", "provider": "gemini", "skill_toggles": map[string]any{"a": "yes"}}, "skill_toggles"},
		"no such pg":       {map[string]any{"name": "x", "provider": "gemini", "build_in_public_playground_id": "nope"}, "build_in_public_playground_id"},
	} {
		r := e.do("POST", "/api/agents", map[string]any{"agent": c.obj})
		if r.status != http.StatusUnprocessableEntity || r.errCode(t) != "VALIDATION_FAILED" {
			t.Errorf("%s: %d %s", name, r.status, r.body)
			continue
		}
		if _, ok := r.errDetails(t)[c.field]; !ok {
			t.Errorf("%s: details do not name %s: %s", name, c.field, r.body)
		}
	}
	// Any text is a name, kept byte for byte; 255 characters is the bound.
	for _, name := range []string{"'; DROP TABLE players; --", "<script>alert('xss')</script>", strings.Repeat("é", 255)} {
		a := e.createAgent(map[string]any{"name": name, "provider": "gemini"})
		got := e.do("GET", "/api/agents/"+strconv.FormatInt(num(a["id"]), 10), nil).json(t)
		if a["name"] != name || got["name"] != name {
			t.Errorf("name %q came back as %q, then %q", name, a["name"], got["name"])
		}
	}
	// A body that is not JSON is refused whole.
	r := e.do("POST", "/api/agents", []byte(`{"agent":{"name":"t","provider":"gemini"}}`), withHeader("Content-Type", "text/plain"))
	if r.status/100 != 4 {
		t.Errorf("text/plain body: %d", r.status)
	}
}

func TestAgentsList(t *testing.T) {
	e := newEnv(t, Config{})
	for i, a := range []struct{ name, provider string }{
		{"beta-one", "gemini"}, {"alpha-two", "cursor"}, {"gamma-needle", "gemini"},
	} {
		e.createAgent(map[string]any{"name": a.name, "provider": a.provider, "description": "agent " + strconv.Itoa(i)})
		e.clock.Advance(time.Minute)
	}
	names := func(query string) []string {
		t.Helper()
		r := e.do("GET", "/api/agents?"+query, nil)
		expectStatus(t, r, http.StatusOK)
		var out []string
		for _, it := range r.json(t)["data"].([]any) {
			out = append(out, it.(map[string]any)["name"].(string))
		}
		return out
	}
	for query, want := range map[string]string{
		"":                             "gamma-needle alpha-two beta-one", // created_at_desc
		"sort=name_asc":                "alpha-two beta-one gamma-needle",
		"sort=created_at_asc":          "beta-one alpha-two gamma-needle",
		"provider=gemini":              "gamma-needle beta-one",
		"name=NEEDLE":                  "gamma-needle",
		"q=agent+1":                    "alpha-two",
		"status=stopped&sort=name_asc": "alpha-two beta-one gamma-needle",
		"status=running":               "",
		"created_after=2030-01-02T03:05:05Z&created_before=2030-01-02T03:06:05Z": "gamma-needle alpha-two",
		"created_after=2100-01-01": "",
		"per_page=1&page=2":        "alpha-two",
		"per_page=1&page=9":        "",
	} {
		if got := strings.Join(names(query), " "); got != want {
			t.Errorf("%q: %q, want %q", query, got, want)
		}
	}
	r := e.do("GET", "/api/agents?include_runtime_status=true&per_page=1", nil)
	item := r.json(t)["data"].([]any)[0].(map[string]any)
	if rs, ok := item["runtime_status"].(map[string]any); !ok || rs["status"] != "stopped" {
		t.Errorf("include_runtime_status: %v", item)
	}
	if _, ok := e.do("GET", "/api/agents", nil).json(t)["data"].([]any)[0].(map[string]any)["runtime_status"]; ok {
		t.Error("runtime_status shown without include_runtime_status")
	}
	for query, code := range map[string]string{
		"sort=provider_asc":          "INVALID_SORT",
		"provider=bogus":             "VALIDATION_FAILED",
		"include_runtime_status=yes": "VALIDATION_FAILED",
		"created_after=yesterday":    "VALIDATION_FAILED",
	} {
		if r := e.do("GET", "/api/agents?"+query, nil); r.errCode(t) != code {
			t.Errorf("%q: %d %s, want %s", query, r.status, r.body, code)
		}
	}
}

// Another player's agent is unknown (404) to every route; a key without
// the agents scopes is refused before anything else (403).
func TestAgentsPlayersAndScopes(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	a := e.createAgent(map[string]any{"name": "mine", "provider": "gemini"})
	id := strconv.FormatInt(num(a["id"]), 10)

	other := *e
	other.key = e.srv.primaryToken(2)
	for _, rq := range []struct{ method, path string }{
		{"GET", "/api/agents/" + id}, {"GET", "/api/agents/mine"}, {"PATCH", "/api/agents/" + id},
		{"DELETE", "/api/agents/" + id}, {"POST", "/api/agents/" + id + "/copies"}, {"GET", "/api/agents/" + id + "/runtime_status"},
	} {
		var body any
		if rq.method == "PATCH" {
			body = map[string]any{"agent": map[string]any{"name": "theirs"}}
		}
		if r := other.do(rq.method, rq.path, body); r.status != http.StatusNotFound {
			t.Errorf("player 2 %s %s: %d %s", rq.method, rq.path, r.status, r.body)
		}
	}
	if list := other.do("GET", "/api/agents", nil).json(t); num(list["meta"].(map[string]any)["total"]) != 0 {
		t.Errorf("player 2 lists player 1's agents: %v", list)
	}

	reader := *e
	reader.key = e.mint(1, "agents:read")
	expectStatus(t, reader.do("GET", "/api/agents", nil), http.StatusOK)
	expectStatus(t, reader.do("GET", "/api/agents/"+id+"/runtime_status", nil), http.StatusOK)
	for _, rq := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/agents", map[string]any{"agent": map[string]any{"name": "", "provider": "nope"}}},
		{"DELETE", "/api/agents/" + id, nil},
		{"POST", "/api/agents/" + id + "/copies", nil},
	} {
		if r := reader.do(rq.method, rq.path, rq.body); r.status != http.StatusForbidden || r.errCode(t) != "FORBIDDEN" {
			t.Errorf("agents:read %s %s: %d %s", rq.method, rq.path, r.status, r.body)
		}
	}
	secrets := *e
	secrets.key = e.mint(1, "secrets:read")
	expectStatus(t, secrets.do("GET", "/api/agents", nil), http.StatusForbidden)
	writer := *e
	writer.key = e.mint(1, "agents:write")
	expectStatus(t, writer.do("DELETE", "/api/agents/"+id, nil), http.StatusNoContent)
}

// A create sent twice with one key is made once and emitted once.
func TestAgentsIdempotentCreate(t *testing.T) {
	e := newEnv(t, Config{})
	body := map[string]any{"agent": map[string]any{"name": "once", "provider": "gemini"}}
	first := e.do("POST", "/api/agents", body, withIdem("agent-once"))
	second := e.do("POST", "/api/agents", body, withIdem("agent-once"))
	expectStatus(t, first, http.StatusCreated)
	expectStatus(t, second, http.StatusCreated)
	if second.header.Get("X-Idempotent-Replayed") != "true" || num(first.json(t)["id"]) != num(second.json(t)["id"]) {
		t.Fatalf("replay: %v %s", second.header, second.body)
	}
	if total := num(e.do("GET", "/api/agents", nil).json(t)["meta"].(map[string]any)["total"]); total != 1 {
		t.Errorf("%d agents after a replayed create", total)
	}
	var created int
	_ = e.srv.store.update(e.clock.Now(), func(st *state) change {
		for _, a := range st.AuditLogs {
			if a.Action == "agent.created" {
				created++
			}
		}
		return unchanged
	})
	if created != 1 {
		t.Errorf("agent.created emitted %d times", created)
	}
}
