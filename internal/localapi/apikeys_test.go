package localapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func keyBody(fields map[string]any) map[string]any { return map[string]any{"api_key": fields} }

func TestAPIKeysCreateListDelete(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("POST", "/api/api_keys", keyBody(map[string]any{"label": "ci", "scopes": []string{"secrets:read", "agents:read"},
		"expires_at": "2031-01-01T00:00:00Z", "agent_accessible": true}))
	expectStatus(t, r, http.StatusCreated)
	created := r.json(t)
	token, _ := created["token"].(string)
	if !strings.HasPrefix(token, "fibe_") || created["masked_token"] == "" || created["masked_token"] == token ||
		created["agent_accessible"] != true || created["label"] != "ci" {
		t.Fatalf("create answer: %s", r.body)
	}
	id := strconv.FormatInt(num(created["id"]), 10)

	// The new key works, with its scopes.
	me := e.do("GET", "/api/me", nil, asKey(token))
	expectStatus(t, me, http.StatusOK)
	if got := mustJSON(t, me.json(t)["api_key_scopes"]); string(got) != `["secrets:read","agents:read"]` {
		t.Errorf("/api/me scopes of the new key: %s", got)
	}

	// The list shows masked tokens, never a token, the primary key
	// included.
	r = e.do("GET", "/api/api_keys", nil)
	expectStatus(t, r, http.StatusOK)
	if strings.Contains(string(r.body), token) || strings.Contains(string(r.body), `"token"`) {
		t.Fatalf("the list carries a token: %s", r.body)
	}
	data := r.json(t)["data"].([]any)
	if len(data) < 2 {
		t.Fatalf("list: %s", r.body)
	}
	for _, it := range data {
		if m := it.(map[string]any); m["masked_token"] == "" || m["masked_token"] == nil {
			t.Errorf("no masked_token: %v", m)
		}
	}
	if r = e.do("GET", "/api/api_keys?label=C", nil); len(r.json(t)["data"].([]any)) != 1 {
		t.Errorf("label filter (substring): %s", r.body)
	}

	// Deleted: its very next request is 401.
	expectStatus(t, e.do("DELETE", "/api/api_keys/"+id, nil), http.StatusNoContent)
	if r = e.do("GET", "/api/me", nil, asKey(token)); r.status != http.StatusUnauthorized || r.errCode(t) != codeUnauthorized {
		t.Fatalf("deleted key: %d %s", r.status, r.body)
	}
	if r = e.do("DELETE", "/api/api_keys/"+id, nil); r.status != http.StatusNotFound {
		t.Fatalf("second delete: %d %s", r.status, r.body)
	}
}

func TestAPIKeyValidation(t *testing.T) {
	e := newEnv(t, Config{})
	before := len(e.do("GET", "/api/api_keys", nil).json(t)["data"].([]any))
	for _, c := range []struct {
		name   string
		fields map[string]any
		field  string
	}{
		{"unknown scope", map[string]any{"label": "x", "scopes": []string{"nonexistent:scope"}}, "scopes"},
		{"empty label", map[string]any{"label": "", "scopes": []string{"agents:read"}}, "label"},
		{"blank label", map[string]any{"label": "  ", "scopes": []string{"agents:read"}}, "label"},
		{"no scopes", map[string]any{"label": "x"}, "scopes"},
		{"empty scopes", map[string]any{"label": "x", "scopes": []string{}}, "scopes"},
		{"scopes not a list", map[string]any{"label": "x", "scopes": "agents:read"}, "scopes"},
		{"* from a player's key", map[string]any{"label": "x", "scopes": []string{"*"}}, "scopes"},
		{"bad expiry", map[string]any{"label": "x", "scopes": []string{"agents:read"}, "expires_at": "soon"}, "expires_at"},
		{"past expiry", map[string]any{"label": "x", "scopes": []string{"agents:read"}, "expires_at": "2001-01-01"}, "expires_at"},
	} {
		r := e.do("POST", "/api/api_keys", keyBody(c.fields))
		if r.status != http.StatusUnprocessableEntity || r.errCode(t) != codeValidation || r.errDetails(t)[c.field] == nil {
			t.Errorf("%s: %d %s, want 422 naming %s", c.name, r.status, r.body, c.field)
		}
	}
	if after := len(e.do("GET", "/api/api_keys", nil).json(t)["data"].([]any)); after != before {
		t.Fatalf("%d keys after refused creates, want %d", after, before)
	}
}

// keys:manage guards every route; the admin key (*) mints "*" keys; a
// key of another player answers 404.
func TestAPIKeyScopes(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	var admin, userB string
	for _, k := range e.srv.Keys() {
		switch {
		case k.Label == "admin":
			admin = k.Key
		case k.Player == 2:
			userB = k.Key
		}
	}
	_, noKeys := e.mintKey("no-keys", "playgrounds:read", "marquees:read")
	victim, _ := e.mintKey("victim", "agents:read")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/api_keys"}, {"POST", "/api/api_keys"}, {"DELETE", "/api/api_keys/" + strconv.FormatInt(victim, 10)},
	} {
		r := e.do(c.method, c.path, keyBody(map[string]any{"label": "", "scopes": []string{}}), asKey(noKeys))
		if r.status != http.StatusForbidden || r.errCode(t) != codeForbidden {
			t.Errorf("%s %s without keys:manage: %d %s", c.method, c.path, r.status, r.body)
		}
	}
	if r := e.do("DELETE", "/api/api_keys/"+strconv.FormatInt(victim, 10), nil, asKey(userB)); r.status != http.StatusNotFound {
		t.Errorf("player 2 deleting player 1's key: %d %s", r.status, r.body)
	}
	if r := e.do("GET", "/api/api_keys", nil, asKey(userB)); strings.Contains(string(r.body), `"victim"`) {
		t.Errorf("player 2 lists player 1's keys: %s", r.body)
	}
	r := e.do("POST", "/api/api_keys", keyBody(map[string]any{"label": "wild", "scopes": []string{"*"}}), asKey(admin))
	expectStatus(t, r, http.StatusCreated)
	wild := r.json(t)["token"].(string)
	for _, path := range []string{"/api/api_keys", "/api/secrets", "/api/playgrounds", "/api/marquees", "/api/playspecs"} {
		expectStatus(t, e.do("GET", path, nil, asKey(wild)), http.StatusOK)
	}
	// A key may delete itself: the answer is given, then it is refused.
	_, self := e.mintKey("self", "keys:manage")
	r = e.do("GET", "/api/api_keys?label=self", nil, asKey(self))
	selfID := strconv.FormatInt(num(r.json(t)["data"].([]any)[0].(map[string]any)["id"]), 10)
	expectStatus(t, e.do("DELETE", "/api/api_keys/"+selfID, nil, asKey(self)), http.StatusNoContent)
	if r = e.do("GET", "/api/api_keys", nil, asKey(self)); r.status != http.StatusUnauthorized {
		t.Errorf("self-deleted key: %d %s", r.status, r.body)
	}
}

func TestStatusAndHealth(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	st := e.do("GET", "/api/status", nil)
	expectStatus(t, st, http.StatusOK)
	body := st.json(t)
	before := num(body["secrets"])
	if plan := body["subscription"].(map[string]any)["plan"]; plan == "" || plan == nil {
		t.Errorf("no plan: %s", st.body)
	}
	for _, k := range []string{"playgrounds", "agents", "props", "playspecs", "marquees", "secrets", "api_keys"} {
		if _, ok := body[k]; !ok {
			t.Errorf("no %s in %s", k, st.body)
		}
	}
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "COUNTED", "value": "v"})), http.StatusCreated)
	if after := num(e.do("GET", "/api/status", nil).json(t)["secrets"]); after != before+1 {
		t.Errorf("secrets %d after a create, want %d", after, before+1)
	}
	var userB string
	for _, k := range e.srv.Keys() {
		if k.Player == 2 {
			userB = k.Key
		}
	}
	if got := num(e.do("GET", "/api/status", nil, asKey(userB)).json(t)["secrets"]); got != 0 {
		t.Errorf("player 2 counts %d secrets", got)
	}
	// Any valid key reads it; no key is 401.
	_, narrow := e.mintKey("narrow", "agents:read")
	expectStatus(t, e.do("GET", "/api/status", nil, asKey(narrow)), http.StatusOK)
	expectStatus(t, e.do("GET", "/api/status", nil, withHeader("Authorization", "")), http.StatusUnauthorized)

	for _, path := range []string{"/up", "/up.json"} {
		r := e.do("GET", path, nil, withHeader("Authorization", ""))
		expectStatus(t, r, http.StatusOK)
		if path == "/up.json" && (r.json(t)["status"] != "ok" || r.json(t)["time_utc"] == "") {
			t.Errorf("/up.json: %s", r.body)
		}
	}
}
