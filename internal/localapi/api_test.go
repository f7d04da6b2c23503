package localapi

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestAuth(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tc := range []struct {
		name string
		opt  reqOpt
	}{
		{"no key", withHeader("Authorization", "")},
		{"wrong key", withHeader("Authorization", "Bearer fibe_wrong")},
		{"not bearer", withHeader("Authorization", "Basic "+DefaultAPIKey)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("GET", "/api/me", nil, tc.opt)
			expectStatus(t, r, http.StatusUnauthorized)
			if code := r.errCode(t); code != "UNAUTHORIZED" {
				t.Fatalf("code %q", code)
			}
			if r.header.Get("X-Request-Id") == "" || r.header.Get("X-RateLimit-Limit") == "" {
				t.Fatalf("missing headers: %v", r.header)
			}
		})
	}
	for _, p := range []string{"/_local/stats"} {
		r := e.do("GET", p, nil, withHeader("Authorization", ""))
		expectStatus(t, r, http.StatusUnauthorized)
	}
	r := e.do("POST", "/_local/chaos", map[string]any{"spec": "503=1"}, withHeader("Authorization", "Bearer nope"))
	expectStatus(t, r, http.StatusUnauthorized)

	custom := newEnv(t, Config{APIKey: "fibe_custom_key"})
	expectStatus(t, custom.do("GET", "/api/me", nil), http.StatusOK)
	custom.key = DefaultAPIKey
	expectStatus(t, custom.do("GET", "/api/me", nil), http.StatusUnauthorized)
}

func TestMeAndCommonHeaders(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("GET", "/api/me", nil)
	expectStatus(t, r, http.StatusOK)
	me := r.json(t)
	if me["email"] != "dev@fibe.local" || me["username"] == "" || num(me["id"]) == 0 {
		t.Fatalf("me = %v", me)
	}
	id := r.header.Get("X-Request-Id")
	if !strings.HasPrefix(id, "req_") {
		t.Fatalf("X-Request-Id %q", id)
	}
	if r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", r.header.Get("Content-Type"))
	}
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if _, err := strconv.ParseInt(r.header.Get(h), 10, 64); err != nil {
			t.Fatalf("%s = %q", h, r.header.Get(h))
		}
	}
	if r.header.Get("X-RateLimit-Limit") != "600" || r.header.Get("X-RateLimit-Remaining") != "599" {
		t.Fatalf("rate headers %v", r.header)
	}
	if r2 := e.do("GET", "/api/me", nil); r2.header.Get("X-Request-Id") == id {
		t.Fatal("request ids repeat")
	}
	r404 := e.do("GET", "/api/nothing-here", nil)
	expectStatus(t, r404, http.StatusNotFound)
	if r404.errCode(t) != "RESOURCE_NOT_FOUND" || r404.header.Get("X-Request-Id") == "" {
		t.Fatalf("unknown route: %s", r404.body)
	}
	r405 := e.do("DELETE", "/api/me", nil)
	expectStatus(t, r405, http.StatusMethodNotAllowed)
}

func TestCableURL(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("GET", "/api/cable_url", nil)
	expectStatus(t, r, http.StatusOK)
	body := r.json(t)
	u, err := url.Parse(body["url"].(string))
	if err != nil || u.Scheme != "ws" || u.Path != "/cable" || u.Query().Get("token") == "" {
		t.Fatalf("cable url %v", body["url"])
	}
	if u.Host != strings.TrimPrefix(e.hs.URL, "http://") {
		t.Fatalf("cable host %q, server %q", u.Host, e.hs.URL)
	}
	exp, err := time.Parse(time.RFC3339, body["expires_at"].(string))
	if err != nil || !exp.After(e.clock.Now()) {
		t.Fatalf("expires_at %v", body["expires_at"])
	}
}

func TestSeedMarquees(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("GET", "/api/marquees", nil)
	expectStatus(t, r, http.StatusOK)
	body := r.json(t)
	data := body["data"].([]any)
	meta := body["meta"].(map[string]any)
	if len(data) != 3 || num(meta["total"]) != 3 || num(meta["page"]) != 1 || num(meta["per_page"]) != 25 {
		t.Fatalf("marquees %s", r.body)
	}
	// status is the marquee's own switch; billing says whether it is paid for today.
	funded := map[string]bool{"local": true, "prod-eu": true, "unpaid": false}
	for _, d := range data {
		m := d.(map[string]any)
		if m["status"] != "active" || m["billing_runtime_active"] != funded[m["name"].(string)] {
			t.Fatalf("marquee %v", m)
		}
		for _, f := range []string{"id", "host", "port", "user", "paid_until", "created_at", "updated_at"} {
			if _, ok := m[f]; !ok {
				t.Fatalf("marquee lacks %s: %v", f, m)
			}
		}
	}
	byName := e.do("GET", "/api/marquees/prod-eu", nil).json(t)
	byID := e.do("GET", fmt.Sprintf("/api/marquees/%d", num(byName["id"])), nil).json(t)
	if byID["name"] != "prod-eu" {
		t.Fatalf("by id %v", byID)
	}
	expectStatus(t, e.do("GET", "/api/marquees/nope", nil), http.StatusNotFound)
}

func TestPlaygroundLifecycle(t *testing.T) {
	e := newEnv(t, Config{})
	pg := e.createPG("demo", "web", map[string]any{"marquee_id": "prod-eu", "env_overrides": map[string]any{"A": "1"}})
	if pg["status"] != "creating" || pg["marquee_name"] != "prod-eu" || pg["playspec_name"] != "web" {
		t.Fatalf("created %v", pg)
	}
	for _, f := range []string{"id", "state_reason", "state_reasons", "error_message", "expires_at", "created_at", "service_urls", "services", "build_statuses"} {
		if _, ok := pg[f]; !ok {
			t.Fatalf("playground lacks %s: %v", f, pg)
		}
	}
	id := num(pg["id"])

	e.clock.Advance(2 * time.Second)
	if got := e.do("GET", "/api/playgrounds/demo", nil).json(t); got["status"] != "creating" {
		t.Fatalf("after 2s: %v", got["status"])
	}
	e.clock.Advance(1 * time.Second)
	got := e.do("GET", fmt.Sprintf("/api/playgrounds/%d", id), nil).json(t)
	if got["status"] != "running" {
		t.Fatalf("after 3s: %v", got["status"])
	}
	svc := got["services"].([]any)[0].(map[string]any)
	if svc["running"] != true || svc["health"] != "healthy" {
		t.Fatalf("services %v", got["services"])
	}
	urls := got["service_urls"].([]any)
	if len(urls) != 1 || urls[0].(map[string]any)["status"] != "up" {
		t.Fatalf("service urls %v", urls)
	}

	upd := e.do("PATCH", "/api/playgrounds/demo", map[string]any{"playground": map[string]any{"name": "demo-2"}})
	expectStatus(t, upd, http.StatusOK)
	if upd.json(t)["name"] != "demo-2" {
		t.Fatalf("update %s", upd.body)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/demo", nil), http.StatusNotFound)

	before, _ := time.Parse(time.RFC3339, got["expires_at"].(string))
	ext := e.do("POST", "/api/playgrounds/demo-2/expiration", map[string]any{"duration_hours": 4})
	expectStatus(t, ext, http.StatusOK)
	after, _ := time.Parse(time.RFC3339, ext.json(t)["expires_at"].(string))
	if after.Sub(before) != 4*time.Hour {
		t.Fatalf("extend moved expiry by %v", after.Sub(before))
	}
	expectStatus(t, e.do("POST", "/api/playgrounds/demo-2/expiration", map[string]any{"duration_hours": 0}), http.StatusUnprocessableEntity)

	// It is running: the delete tears it down in the background.
	del := e.do("DELETE", "/api/playgrounds/demo-2", nil)
	expectStatus(t, del, http.StatusAccepted)
	if _, body := e.pollUntil(del.json(t)["status_url"].(string), 500*time.Millisecond); body["status"] != "success" {
		t.Fatalf("delete operation: %v", body)
	}
	expectStatus(t, e.do("GET", fmt.Sprintf("/api/playgrounds/%d", id), nil), http.StatusNotFound)
	expectStatus(t, e.do("DELETE", "/api/playgrounds/demo-2", nil), http.StatusNotFound)
}

func TestSpeedScalesProvisioning(t *testing.T) {
	e := newEnv(t, Config{Speed: 100})
	e.createPG("quick", "web", nil)
	e.clock.Advance(29 * time.Millisecond)
	if st := e.do("GET", "/api/playgrounds/quick", nil).json(t)["status"]; st != "creating" {
		t.Fatalf("status %v", st)
	}
	e.clock.Advance(time.Millisecond)
	if st := e.do("GET", "/api/playgrounds/quick", nil).json(t)["status"]; st != "running" {
		t.Fatalf("status %v at 3s/100", st)
	}
}

func TestCreateValidation(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("taken", "web", nil)
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"missing name", map[string]any{"playground": map[string]any{"playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"blank name", map[string]any{"playground": map[string]any{"name": " ", "playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"bad name", map[string]any{"playground": map[string]any{"name": "Has Space", "playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"numeric name", map[string]any{"playground": map[string]any{"name": "123", "playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"duplicate", map[string]any{"playground": map[string]any{"name": "taken", "playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"no playspec", map[string]any{"playground": map[string]any{"name": "x"}}, 422, "VALIDATION_FAILED", "playspec_id"},
		{"unknown playspec", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "nope"}}, 422, "VALIDATION_FAILED", "playspec_id"},
		{"unknown playspec id", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": 99}}, 422, "VALIDATION_FAILED", "playspec_id"},
		{"unknown marquee", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "web", "marquee_id": "nope"}}, 422, "VALIDATION_FAILED", "marquee_id"},
		{"name not string", map[string]any{"playground": map[string]any{"name": 5, "playspec_id": "web"}}, 422, "VALIDATION_FAILED", "name"},
		{"env not strings", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "web", "env_overrides": map[string]any{"A": 1}}}, 422, "VALIDATION_FAILED", "env_overrides"},
		{"unwrapped", map[string]any{"name": "x", "playspec_id": "web"}, 400, "BAD_REQUEST", ""},
		{"unfunded", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "web", "marquee_id": "unpaid"}}, 402, "MARQUEE_NOT_FUNDED", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/api/playgrounds", tc.body)
			expectStatus(t, r, tc.status)
			if code := r.errCode(t); code != tc.code {
				t.Fatalf("code %q, want %q", code, tc.code)
			}
			if tc.field != "" {
				if _, ok := r.errDetails(t)[tc.field]; !ok {
					t.Fatalf("details lack %s: %s", tc.field, r.body)
				}
			}
		})
	}
	if st := e.srv.Stats(); st.Creates["x"] != 0 || st.Creates["taken"] != 1 {
		t.Fatalf("creates %v", st.Creates)
	}
	// A playspec and marquee may be given by numeric id too.
	r := e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "by-id", "playspec_id": 1, "marquee_id": 2}})
	expectStatus(t, r, http.StatusCreated)
	if pg := r.json(t); pg["playspec_name"] != "web" || pg["marquee_name"] != "prod-eu" {
		t.Fatalf("by id: %v", pg)
	}
}

func TestPlaygroundListPaginationAndFilters(t *testing.T) {
	e := newEnv(t, Config{})
	for i := 1; i <= 7; i++ {
		e.createPG(fmt.Sprintf("pg-%d", i), "web", nil)
	}
	e.clock.Advance(5 * time.Second)
	e.createPG("late-one", "web", nil)

	r := e.do("GET", "/api/playgrounds?page=2&per_page=3", nil)
	expectStatus(t, r, http.StatusOK)
	body := r.json(t)
	data := body["data"].([]any)
	meta := body["meta"].(map[string]any)
	if len(data) != 3 || num(meta["total"]) != 8 || num(meta["page"]) != 2 || num(meta["per_page"]) != 3 {
		t.Fatalf("page 2: %s", r.body)
	}
	if data[0].(map[string]any)["name"] != "pg-5" { // newest first
		t.Fatalf("page 2 starts with %v", data[0])
	}
	last := e.do("GET", "/api/playgrounds?page=3&per_page=3", nil).json(t)
	if n := len(last["data"].([]any)); n != 2 {
		t.Fatalf("page 3 has %d", n)
	}
	beyond := e.do("GET", "/api/playgrounds?page=99999999999999999&per_page=100", nil).json(t)
	if n := len(beyond["data"].([]any)); n != 0 {
		t.Fatalf("far page has %d", n)
	}
	creating := e.do("GET", "/api/playgrounds?status=creating", nil).json(t)
	if d := creating["data"].([]any); len(d) != 1 || d[0].(map[string]any)["name"] != "late-one" {
		t.Fatalf("status filter %v", d)
	}
	named := e.do("GET", "/api/playgrounds?name=pg-7", nil).json(t)
	if d := named["data"].([]any); len(d) != 1 {
		t.Fatalf("name filter %v", d)
	}
	for _, q := range []string{"page=0", "per_page=-1", "page=abc"} {
		r := e.do("GET", "/api/playgrounds?"+q, nil)
		expectStatus(t, r, http.StatusBadRequest)
	}
	capped := e.do("GET", "/api/playgrounds?per_page=1000", nil).json(t)
	if num(capped["meta"].(map[string]any)["per_page"]) != 100 {
		t.Fatalf("per_page not capped: %v", capped["meta"])
	}
}

func TestPathEscapedNames(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("a-b", "web", nil)
	expectStatus(t, e.do("GET", "/api/playgrounds/"+url.PathEscape("a-b"), nil), http.StatusOK)
	expectStatus(t, e.do("GET", "/api/playgrounds/a%2Fb", nil), http.StatusNotFound)
}

func TestMarqueeCRUDNeverEchoesPrivateKey(t *testing.T) {
	dir := t.TempDir()
	statePath := dir + "/state.json"
	e := newEnv(t, Config{StatePath: statePath})
	secret := "-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----"
	r := e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{
		"name": "edge", "host": "edge.example.test", "port": 2222, "user": "deploy", "ssh_private_key": secret}})
	expectStatus(t, r, http.StatusCreated)
	m := r.json(t)
	if m["port"] != float64(2222) || m["user"] != "deploy" || m["ssh_key_configured"] != true || m["status"] != "active" {
		t.Fatalf("marquee %v", m)
	}
	if strings.Contains(string(r.body), "PRIVATE") || strings.Contains(string(r.body), "ssh_private_key") {
		t.Fatalf("private key echoed: %s", r.body)
	}
	expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "edge", "host": "h"}}), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "nohost"}}), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "badport", "host": "h", "port": 70000}}), http.StatusUnprocessableEntity)

	upd := e.do("PATCH", "/api/marquees/edge", map[string]any{"marquee": map[string]any{"port": 22, "ssh_private_key": secret}})
	expectStatus(t, upd, http.StatusOK)
	if strings.Contains(string(upd.body), "PRIVATE") {
		t.Fatal("private key echoed on update")
	}
	// Nothing of the key is kept on disk either.
	raw := readFile(t, statePath)
	if strings.Contains(raw, "PRIVATE") || strings.Contains(raw, "c2VjcmV0") {
		t.Fatal("private key stored in the state file")
	}
	if e.srv.Stats().Creates["edge"] != 1 {
		t.Fatalf("creates %v", e.srv.Stats().Creates)
	}

	// A marquee with playgrounds cannot go; an empty one can.
	e.createPG("on-edge", "web", map[string]any{"marquee_id": "edge"})
	busy := e.do("DELETE", "/api/marquees/edge", nil)
	expectStatus(t, busy, http.StatusConflict)
	if busy.errDetails(t)["reason"] != "marquee_in_use" {
		t.Fatalf("delete busy: %s", busy.body)
	}
	del := e.do("DELETE", "/api/playgrounds/on-edge", nil)
	expectStatus(t, del, http.StatusAccepted)
	// Still in use until the playground is gone.
	expectStatus(t, e.do("DELETE", "/api/marquees/edge", nil), http.StatusConflict)
	e.pollUntil(del.json(t)["status_url"].(string), 500*time.Millisecond)
	expectStatus(t, e.do("DELETE", "/api/marquees/edge", nil), http.StatusNoContent)
	expectStatus(t, e.do("GET", "/api/marquees/edge", nil), http.StatusNotFound)
}

// The headers of docs/api.md appear on the wire as documented, as `curl -i`
// would show them.
func TestRawHeadersOnTheWire(t *testing.T) {
	e := newEnv(t, Config{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.hs.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	body := `{"playground":{"name":"raw","playspec_id":"web"}}`
	fmt.Fprintf(conn, "POST /api/playgrounds HTTP/1.1\r\nHost: fibe.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nIdempotency-Key: k-raw\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		e.key, len(body), body)
	raw, err := io.ReadAll(conn)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for _, h := range []string{"HTTP/1.1 201 Created", "\r\nX-Request-Id: req_", "\r\nX-RateLimit-Limit: 600",
		"\r\nX-RateLimit-Remaining: 599", "\r\nX-RateLimit-Reset: ", "\r\nLocation: /api/playgrounds/1"} {
		if !strings.Contains(head, h) {
			t.Fatalf("response head lacks %q:\n%s", h, head)
		}
	}
}

// An update may rename, but not onto a name another resource holds, and
// keeping one's own name is no conflict.
func TestRenameOnUpdate(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("first", "web", nil)
	e.createPG("second", "web", nil)
	for _, tc := range []struct{ path, wrapper, taken string }{
		{"/api/playgrounds/second", "playground", "first"},
		{"/api/marquees/unpaid", "marquee", "prod-eu"},
	} {
		r := e.do("PATCH", tc.path, map[string]any{tc.wrapper: map[string]any{"name": tc.taken}}, withIdem("k-"+tc.wrapper+"-taken"))
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if d := r.errDetails(t); fmt.Sprint(d["name"]) != "[has already been taken]" {
			t.Errorf("%s: details %v", tc.path, d)
		}
		r = e.do("PATCH", tc.path, map[string]any{tc.wrapper: map[string]any{"name": "-bad name-"}}, withIdem("k-"+tc.wrapper+"-bad"))
		expectStatus(t, r, http.StatusUnprocessableEntity)
		self := tc.path[strings.LastIndexByte(tc.path, '/')+1:]
		r = e.do("PATCH", tc.path, map[string]any{tc.wrapper: map[string]any{"name": self}}, withIdem("k-"+tc.wrapper+"-self"))
		expectStatus(t, r, http.StatusOK)
		r = e.do("PATCH", tc.path, map[string]any{tc.wrapper: map[string]any{"name": self + "-2"}}, withIdem("k-"+tc.wrapper+"-new"))
		expectStatus(t, r, http.StatusOK)
		if got := r.json(t)["name"]; got != self+"-2" {
			t.Errorf("%s: renamed to %v", tc.path, got)
		}
	}
}
