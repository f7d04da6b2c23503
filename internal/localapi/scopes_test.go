package localapi

import (
	"net/http"
	"strings"
	"testing"
)

// Scope enforcement route by route (docs/api.md, "API keys"): each route
// admits the scopes that open it and refuses others with 403 FORBIDDEN,
// before its body is read or anything is looked up; "*" opens everything.
func TestScopeEnforcementRouteByRoute(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	e.createPG("scoped", "web", map[string]any{"marquee_id": "local"})
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "S", "value": "v"})), http.StatusCreated)
	var admin string
	for _, k := range e.srv.Keys() {
		if k.Label == "admin" {
			admin = k.Key
		}
	}
	keys := map[string]string{"*": admin}
	token := func(scope string) string {
		if keys[scope] == "" {
			_, keys[scope] = e.mintKey("k-"+scope, scope)
		}
		return keys[scope]
	}
	// A body every route would refuse: only the scope can answer first.
	bad := map[string]any{"playground": map[string]any{"name": "bad name!", "playspec_id": "nope"},
		"marquee": map[string]any{"name": ""}, "secret": map[string]any{"key": "bad key"}, "api_key": map[string]any{}}
	for _, c := range []struct {
		method, path string
		allowed      []string
		refused      []string
	}{
		{"GET", "/api/me", []string{"agents:read", "marquees:read", "*"}, nil},
		{"GET", "/api/status", []string{"agents:read", "*"}, nil},
		{"GET", "/api/playgrounds", []string{"playgrounds:read", "*"}, []string{"agents:read", "marquees:read", "playgrounds:write"}},
		{"GET", "/api/playgrounds/scoped", []string{"playgrounds:read", "*"}, []string{"agents:read", "marquees:read"}},
		{"GET", "/api/playgrounds/scoped/status", []string{"playgrounds:read"}, []string{"agents:read", "marquees:read"}},
		{"POST", "/api/playgrounds/scoped/logs", []string{"playgrounds:read"}, []string{"agents:read", "marquees:read"}},
		{"POST", "/api/playgrounds", nil, []string{"playgrounds:read", "marquees:write"}},
		{"POST", "/api/playgrounds/scoped/operations", nil, []string{"playgrounds:read"}},
		{"POST", "/api/playgrounds/scoped/expiration", nil, []string{"playgrounds:read"}},
		{"DELETE", "/api/playgrounds/scoped", nil, []string{"playgrounds:read", "secrets:delete"}},
		{"GET", "/api/playspecs", []string{"playspecs:read", "*"}, []string{"agents:read", "marquees:read"}},
		{"GET", "/api/marquees", []string{"marquees:read", "marquees:manage", "*"}, []string{"agents:read", "playgrounds:read"}},
		{"GET", "/api/marquees/local", []string{"marquees:read", "*"}, []string{"agents:read"}},
		{"POST", "/api/marquees", nil, []string{"marquees:read"}},
		{"PATCH", "/api/marquees/local", nil, []string{"marquees:read"}},
		{"DELETE", "/api/marquees/local", nil, []string{"marquees:read"}},
		{"POST", "/api/marquees/local/ssh_keys", nil, []string{"marquees:read"}},
		{"POST", "/api/marquees/local/connection_tests", nil, []string{"props:read", "marquees:read"}},
		{"GET", "/api/secrets", []string{"secrets:read", "*"}, []string{"agents:read", "playgrounds:read"}},
		{"GET", "/api/secrets/S", []string{"secrets:read", "*"}, []string{"agents:read", "playgrounds:read"}},
		{"POST", "/api/secrets", nil, []string{"secrets:read"}},
		{"GET", "/api/api_keys", []string{"keys:manage", "*"}, []string{"playgrounds:read", "marquees:read"}},
		{"POST", "/api/api_keys", nil, []string{"playgrounds:read", "secrets:manage"}},
	} {
		for _, scope := range c.refused {
			r := e.do(c.method, c.path, bad, asKey(token(scope)))
			if r.status != http.StatusForbidden || r.errCode(t) != codeForbidden {
				t.Errorf("%s %s with %s: %d %s, want 403 FORBIDDEN", c.method, c.path, scope, r.status, r.body)
			} else if msg, _ := r.json(t)["error"].(map[string]any)["message"].(string); msg == "" {
				t.Errorf("%s %s: a 403 without a message", c.method, c.path)
			}
		}
		for _, scope := range c.allowed {
			if r := e.do(c.method, c.path, nil, asKey(token(scope))); r.status >= 300 {
				t.Errorf("%s %s with %s: %d %s", c.method, c.path, scope, r.status, r.body)
			}
		}
	}
}

// A key that is not one is 401, never 403: deleted, empty, or not sent as
// a bearer token; the message says nothing of how keys are checked.
func TestUnauthorizedIsNever403(t *testing.T) {
	e := newEnv(t, Config{})
	id, tok := e.mintKey("gone", "secrets:read")
	expectStatus(t, e.do("DELETE", "/api/api_keys/"+itoa(int(id)), nil), http.StatusNoContent)
	for name, header := range map[string]string{
		"deleted": "Bearer " + tok, "empty": "Bearer ", "none": "", "basic": "Basic " + e.key,
		"token": "Token " + e.key, "bare": e.key, "unknown": "Bearer fibe_invalid_key",
	} {
		r := e.do("GET", "/api/secrets", nil, withHeader("Authorization", header))
		if r.status != http.StatusUnauthorized || r.errCode(t) != codeUnauthorized {
			t.Errorf("%s: %d %s, want 401", name, r.status, r.body)
		}
		if low := strings.ToLower(string(r.body)); strings.Contains(low, "stack") || strings.Contains(low, "trace") || strings.Contains(low, "bcrypt") {
			t.Errorf("%s: %s", name, r.body)
		}
	}
}
