package localapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// asKey sends a request with another bearer token.
func asKey(token string) reqOpt { return withHeader("Authorization", "Bearer "+token) }

// mintKey creates a key of the configured player with scopes and returns
// its id and token.
func (e *env) mintKey(label string, scopes ...string) (int64, string) {
	e.t.Helper()
	r := e.do("POST", "/api/api_keys", map[string]any{"api_key": map[string]any{"label": label, "scopes": scopes}})
	expectStatus(e.t, r, http.StatusCreated)
	body := r.json(e.t)
	token, _ := body["token"].(string)
	if token == "" {
		e.t.Fatalf("no token in %s", r.body)
	}
	return num(body["id"]), token
}

func secretBody(fields map[string]any) map[string]any { return map[string]any{"secret": fields} }

func TestSecretsCRUD(t *testing.T) {
	e := newEnv(t, Config{})
	const value = "pw'; DROP TABLE secrets; -- \"quoted\" \\ back"
	r := e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "db-url_1", "value": value, "description": "the db"}))
	expectStatus(t, r, http.StatusCreated)
	created := r.json(t)
	if _, ok := created["value"]; ok || created["key"] != "db-url_1" || created["description"] != "the db" {
		t.Fatalf("create answer: %s", r.body)
	}
	id := strconv.FormatInt(num(created["id"]), 10)

	// The list and a plain get never carry the value.
	r = e.do("GET", "/api/secrets?key=db-URL", nil)
	expectStatus(t, r, http.StatusOK)
	if strings.Contains(string(r.body), "DROP TABLE") {
		t.Fatalf("the list carries the value: %s", r.body)
	}
	data, _ := r.json(t)["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("key filter (substring, any case): %s", r.body)
	}
	for _, ref := range []string{id, "db-url_1"} {
		r = e.do("GET", "/api/secrets/"+ref, nil)
		expectStatus(t, r, http.StatusOK)
		if _, ok := r.json(t)["value"]; ok {
			t.Fatalf("get %s without reveal carries the value: %s", ref, r.body)
		}
		r = e.do("GET", "/api/secrets/"+ref+"?reveal=true", nil)
		expectStatus(t, r, http.StatusOK)
		if got := r.json(t)["value"]; got != value {
			t.Fatalf("reveal %s: value %q, want %q", ref, got, value)
		}
	}
	if r = e.do("GET", "/api/secrets/"+id+"?reveal=maybe", nil); r.status != http.StatusUnprocessableEntity {
		t.Fatalf("reveal=maybe: %d %s", r.status, r.body)
	}

	// An update changes the value and the description, never the key.
	r = e.do("PATCH", "/api/secrets/db-url_1", secretBody(map[string]any{"value": "v2", "description": "rotated"}))
	expectStatus(t, r, http.StatusOK)
	if _, ok := r.json(t)["value"]; ok || r.json(t)["description"] != "rotated" {
		t.Fatalf("update answer: %s", r.body)
	}
	if got := e.do("GET", "/api/secrets/"+id+"?reveal=true", nil).json(t)["value"]; got != "v2" {
		t.Fatalf("value after update: %v", got)
	}
	r = e.do("PATCH", "/api/secrets/"+id, secretBody(map[string]any{"key": "OTHER"}))
	if r.status != http.StatusUnprocessableEntity || r.errDetails(t)["key"] == nil {
		t.Fatalf("renaming: %d %s", r.status, r.body)
	}

	// Delete, then it is gone.
	expectStatus(t, e.do("DELETE", "/api/secrets/"+id, nil), http.StatusNoContent)
	if r = e.do("GET", "/api/secrets/"+id, nil); r.status != http.StatusNotFound || r.errCode(t) != codeNotFound {
		t.Fatalf("get after delete: %d %s", r.status, r.body)
	}
	if r = e.do("DELETE", "/api/secrets/db-url_1", nil); r.status != http.StatusNotFound {
		t.Fatalf("second delete: %d %s", r.status, r.body)
	}
}

// Every refusal is a 422 naming the field, and creates nothing.
func TestSecretValidation(t *testing.T) {
	e := newEnv(t, Config{})
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "TAKEN", "value": "x"})), http.StatusCreated)
	for _, c := range []struct {
		name   string
		fields map[string]any
		field  string
	}{
		{"duplicate", map[string]any{"key": "TAKEN", "value": "y"}, "key"},
		{"space", map[string]any{"key": "MY KEY", "value": "y"}, "key"},
		{"dot", map[string]any{"key": "my.key", "value": "y"}, "key"},
		{"slash", map[string]any{"key": "my/key", "value": "y"}, "key"},
		{"empty key", map[string]any{"key": "", "value": "y"}, "key"},
		{"no value", map[string]any{"key": "NOVALUE"}, "value"},
		{"empty value", map[string]any{"key": "EMPTY", "value": ""}, "value"},
		{"value not a string", map[string]any{"key": "NUM", "value": 12}, "value"},
		{"100,000 characters", map[string]any{"key": "HUGE", "value": strings.Repeat("v", 100_000)}, "value"},
		{"one over the maximum", map[string]any{"key": "OVER", "value": strings.Repeat("é", secretValueMax+1)}, "value"},
	} {
		r := e.do("POST", "/api/secrets", secretBody(c.fields))
		if r.status != http.StatusUnprocessableEntity || r.errCode(t) != codeValidation || r.errDetails(t)[c.field] == nil {
			t.Errorf("%s: %d %s, want 422 naming %s", c.name, r.status, r.body, c.field)
		}
		if strings.Contains(string(r.body), "vvvvvvvvvv") {
			t.Errorf("%s: the refusal quotes the value", c.name)
		}
	}
	// The maximum itself is accepted; lowercase and hyphens too.
	r := e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "max-len_ok", "value": strings.Repeat("é", secretValueMax)}))
	expectStatus(t, r, http.StatusCreated)
	if total := num(e.do("GET", "/api/secrets", nil).json(t)["meta"].(map[string]any)["total"]); total != 2 {
		t.Fatalf("%d secrets, want 2: a refused create made one", total)
	}
}

// Sort, paging and the date filters of the list.
func TestSecretList(t *testing.T) {
	e := newEnv(t, Config{})
	for _, k := range []string{"B_KEY", "A_KEY", "C_KEY"} {
		expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": k, "value": "v"})), http.StatusCreated)
		e.clock.Advance(1e9)
	}
	keys := func(path string) string {
		t.Helper()
		r := e.do("GET", path, nil)
		expectStatus(t, r, http.StatusOK)
		var out []string
		for _, it := range r.json(t)["data"].([]any) {
			out = append(out, it.(map[string]any)["key"].(string))
		}
		return strings.Join(out, ",")
	}
	for path, want := range map[string]string{
		"/api/secrets":                                "C_KEY,A_KEY,B_KEY",
		"/api/secrets?sort=key_asc":                   "A_KEY,B_KEY,C_KEY",
		"/api/secrets?sort=created_at_asc":            "B_KEY,A_KEY,C_KEY",
		"/api/secrets?sort=key_desc&per_page=2":       "C_KEY,B_KEY",
		"/api/secrets?sort=key_asc&page=2&per_page=2": "C_KEY",
		"/api/secrets?page=9":                         "",
		"/api/secrets?q=a_k":                          "A_KEY",
		"/api/secrets?name=b_":                        "B_KEY", // a secret's name is its key
	} {
		if got := keys(path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if r := e.do("GET", "/api/secrets?sort=value_asc", nil); r.status != http.StatusBadRequest || r.errCode(t) != codeInvalidSort {
		t.Errorf("sort by value: %d %s", r.status, r.body)
	}
	if meta := e.do("GET", "/api/secrets?per_page=500", nil).json(t)["meta"].(map[string]any); num(meta["per_page"]) != 100 {
		t.Errorf("per_page 500: %v, want clamped to 100", meta)
	}
	if got := keys("/api/secrets?created_after=2999-01-01"); got != "" {
		t.Errorf("far-future created_after: %s", got)
	}
}

// The scope check comes before anything else, route by route.
func TestSecretScopes(t *testing.T) {
	e := newEnv(t, Config{})
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "S", "value": "hidden"})), http.StatusCreated)
	_, read := e.mintKey("read", "secrets:read")
	_, write := e.mintKey("write", "secrets:write")
	_, other := e.mintKey("other", "agents:read", "playgrounds:read")
	_, manage := e.mintKey("manage", "secrets:manage")
	type call struct{ method, path string }
	list, get := call{"GET", "/api/secrets"}, call{"GET", "/api/secrets/S"}
	reveal := call{"GET", "/api/secrets/S?reveal=true"}
	create, update, del := call{"POST", "/api/secrets"}, call{"PATCH", "/api/secrets/S"}, call{"DELETE", "/api/secrets/S"}
	for _, c := range []struct {
		key     string
		allowed []call
		refused []call
	}{
		{read, []call{list, get, reveal}, []call{create, update, del}},
		{other, nil, []call{list, get, reveal, create, update, del}},
		{write, []call{create, update}, []call{list, get}},
	} {
		for _, cl := range c.refused {
			// A body that would be refused anyway: the scope answers first.
			r := e.do(cl.method, cl.path, secretBody(map[string]any{"key": "bad key"}), asKey(c.key))
			if r.status != http.StatusForbidden || r.errCode(t) != codeForbidden {
				t.Errorf("%s %s: %d %s, want 403 FORBIDDEN", cl.method, cl.path, r.status, r.body)
			}
		}
		for _, cl := range c.allowed {
			var body any
			switch cl {
			case create:
				body = secretBody(map[string]any{"key": "NEW_" + strconv.Itoa(len(c.key)), "value": "v"})
			case update:
				body = secretBody(map[string]any{"description": "d"})
			}
			if r := e.do(cl.method, cl.path, body, asKey(c.key)); r.status >= 300 {
				t.Errorf("%s %s: %d %s", cl.method, cl.path, r.status, r.body)
			}
		}
	}
	// secrets:write deletes; secrets:manage does everything.
	expectStatus(t, e.do("DELETE", "/api/secrets/S", nil, asKey(write)), http.StatusNoContent)
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "M", "value": "v"}), asKey(manage)), http.StatusCreated)
	expectStatus(t, e.do("GET", "/api/secrets/M?reveal=true", nil, asKey(manage)), http.StatusOK)
}

// Another player's secret answers 404 like an unknown one, and a second
// key of the same player sees the same secrets.
func TestSecretIsolation(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	keys := e.srv.Keys()
	var userB string
	for _, k := range keys {
		if k.Player == 2 {
			userB = k.Key
		}
	}
	r := e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "MINE", "value": "v"}))
	expectStatus(t, r, http.StatusCreated)
	id := strconv.FormatInt(num(r.json(t)["id"]), 10)
	for _, path := range []string{"/api/secrets/" + id, "/api/secrets/MINE", "/api/secrets/MINE?reveal=true"} {
		if r := e.do("GET", path, nil, asKey(userB)); r.status != http.StatusNotFound {
			t.Errorf("player 2 GET %s: %d %s", path, r.status, r.body)
		}
	}
	for _, m := range []string{"PATCH", "DELETE"} {
		if r := e.do(m, "/api/secrets/"+id, secretBody(map[string]any{"value": "stolen"}), asKey(userB)); r.status != http.StatusNotFound {
			t.Errorf("player 2 %s: %d %s", m, r.status, r.body)
		}
	}
	if total := num(e.do("GET", "/api/secrets", nil, asKey(userB)).json(t)["meta"].(map[string]any)["total"]); total != 0 {
		t.Errorf("player 2 lists %d secrets", total)
	}
	// Player 2 may use the same key name.
	expectStatus(t, e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "MINE", "value": "theirs"}), asKey(userB)), http.StatusCreated)
	if got := e.do("GET", "/api/secrets/MINE?reveal=true", nil).json(t)["value"]; got != "v" {
		t.Errorf("player 1's value after player 2's create: %v", got)
	}
	_, second := e.mintKey("second", "secrets:read")
	expectStatus(t, e.do("GET", "/api/secrets/"+id, nil, asKey(second)), http.StatusOK)
}

// A value reaches no log line, no event and no error, even when the
// request fails.
func TestSecretValueNeverLogged(t *testing.T) {
	e := newEnv(t, Config{})
	const value = "s3cr3t-value-zq81"
	e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "K", "value": value}))
	e.do("PATCH", "/api/secrets/K", secretBody(map[string]any{"value": value + "-2"}))
	e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "K", "value": value}))
	e.do("POST", "/api/secrets", secretBody(map[string]any{"key": "bad key", "value": value}))
	e.do("POST", "/api/secrets", []byte(`{"secret": {"key": "X", "value": "`+value+`"`), withHeader("Content-Type", "application/json"))
	e.do("DELETE", "/api/secrets/K", nil)
	if strings.Contains(e.logs.joined(), value) {
		t.Fatalf("the value is in the log:\n%s", e.logs.joined())
	}
	var audit strings.Builder
	e.srv.store.update(e.clock.Now(), func(st *state) change {
		for _, a := range st.AuditLogs {
			audit.WriteString(a.Action + " ")
			audit.Write(mustJSON(t, a))
		}
		return unchanged
	})
	if strings.Contains(audit.String(), value) {
		t.Fatalf("the value is in the audit log: %s", audit.String())
	}
	for _, ev := range []string{"secret.created", "secret.updated", "secret.destroyed"} {
		if !strings.Contains(audit.String(), ev) {
			t.Errorf("no %s event in %s", ev, audit.String())
		}
	}
}

// The wire transcript walks the routes of secrets, API keys and the status
// too (a minted key's token is random: the transcript holds its refusals
// and the seeded keys).
func init() {
	wireScenarios = append(wireScenarios, wireScenario{"secrets, API keys, status", Config{}, func(tr *transcript) {
		tr.send("POST", "/api/secrets", secretBody(map[string]any{"key": "DB_URL", "value": "v1", "description": "db"}))
		tr.send("POST", "/api/secrets", secretBody(map[string]any{"key": "DB_URL", "value": "v2"}))
		tr.send("POST", "/api/secrets", secretBody(map[string]any{"key": "db url", "value": "v2"}))
		tr.send("GET", "/api/secrets", nil)
		tr.send("GET", "/api/secrets/DB_URL", nil)
		tr.send("GET", "/api/secrets/DB_URL?reveal=true", nil)
		tr.send("PATCH", "/api/secrets/DB_URL", secretBody(map[string]any{"value": "v2", "description": "rotated"}))
		tr.send("PATCH", "/api/secrets/DB_URL", secretBody(map[string]any{"key": "OTHER"}))
		tr.send("GET", "/api/secrets?sort=value_asc", nil)
		tr.send("DELETE", "/api/secrets/1", nil)
		tr.send("GET", "/api/secrets/1", nil)
		tr.send("GET", "/api/api_keys", nil)
		tr.send("POST", "/api/api_keys", keyBody(map[string]any{"label": "x", "scopes": []string{"nope:read"}}))
		tr.send("POST", "/api/api_keys", keyBody(map[string]any{"label": "", "scopes": []string{"secrets:read"}}))
		tr.send("POST", "/api/api_keys", keyBody(map[string]any{"label": "x"}))
		tr.send("POST", "/api/api_keys", keyBody(map[string]any{"label": "x", "scopes": []string{"*"}}))
		tr.send("DELETE", "/api/api_keys/999", nil)
		tr.send("GET", "/api/status", nil)
		tr.send("GET", "/up", nil, withHeader("Authorization", ""))
		tr.send("GET", "/up.json", nil, withHeader("Authorization", ""))
	}})
}
