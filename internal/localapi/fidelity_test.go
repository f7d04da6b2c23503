package localapi

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// The emulator answers as the platform does (docs/api.md), for any client.
// Each test goes over a real 127.0.0.1 socket.

// names lists the "name" of every item of a list answer, in order.
func names(t *testing.T, r *resp) []string {
	t.Helper()
	expectStatus(t, r, http.StatusOK)
	var out []string
	for _, d := range r.json(t)["data"].([]any) {
		out = append(out, d.(map[string]any)["name"].(string))
	}
	return out
}

func total(t *testing.T, r *resp) int64 {
	t.Helper()
	return num(r.json(t)["meta"].(map[string]any)["total"])
}

// expectInvalidParam checks a 422 VALIDATION_FAILED naming param.
func expectInvalidParam(t *testing.T, r *resp, param string) {
	t.Helper()
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if code := r.errCode(t); code != "VALIDATION_FAILED" {
		t.Fatalf("code %q: %s", code, r.body)
	}
	if _, ok := r.errDetails(t)[param]; !ok {
		t.Fatalf("details do not name %s: %s", param, r.body)
	}
	if !strings.Contains(string(r.body), param) {
		t.Fatalf("message does not name %s: %s", param, r.body)
	}
}

// playgroundWorld makes playgrounds one hour apart (created_at 03:04:05,
// 04:04:05, ...) on two marquees and two playspecs.
func playgroundWorld(t *testing.T) *env {
	e := newEnv(t, Config{})
	for _, p := range []struct{ name, spec, marquee string }{
		{"alpha", "web", "local"},
		{"bravo", "broken", "local"},
		{"charlie", "web", "prod-eu"},
		{"delta-web", "web", "prod-eu"},
		{"echo-web", "broken", "prod-eu"},
	} {
		e.createPG(p.name, p.spec, map[string]any{"marquee_id": p.marquee})
		e.clock.Advance(time.Hour)
	}
	// All are running now but the last, which is stopped.
	e.clock.Advance(time.Minute)
	r := e.do("POST", "/api/playgrounds/echo-web/operations", map[string]any{"action_type": "stop"})
	expectStatus(t, r, http.StatusAccepted)
	e.pollUntil(r.json(t)["status_url"].(string), time.Second)
	return e
}

func TestPlaygroundListFiltersFilter(t *testing.T) {
	e := playgroundWorld(t)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		// Newest first unless sort says otherwise.
		{"", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
		{"playspec_id=2", []string{"echo-web", "bravo"}},
		{"playspec_id=broken", []string{"echo-web", "bravo"}},
		{"playspec_id=web", []string{"delta-web", "charlie", "alpha"}},
		{"marquee_id=prod-eu", []string{"echo-web", "delta-web", "charlie"}},
		{"marquee_id=1", []string{"bravo", "alpha"}},
		{"marquee_id=unpaid", nil},
		{"status=stopped", []string{"echo-web"}},
		{"status=running", []string{"delta-web", "charlie", "bravo", "alpha"}},
		{"status=error", nil},
		{"name=charlie", []string{"charlie"}},
		{"name=CHARLIE", []string{"charlie"}},
		{"name=char", []string{"charlie"}}, // name matches a substring, as q does
		{"name=-web", []string{"echo-web", "delta-web"}},
		{"q=web", []string{"echo-web", "delta-web"}},
		{"q=WEB", []string{"echo-web", "delta-web"}},
		{"created_after=2030-01-02T04:30:00Z", []string{"echo-web", "delta-web", "charlie"}},
		{"created_before=2030-01-02T05:04:05Z", []string{"charlie", "bravo", "alpha"}}, // inclusive
		{"created_after=2030-01-02T04:04:05Z&created_before=2030-01-02T07:00:00Z", []string{"delta-web", "charlie", "bravo"}},
		{"created_after=2030-01-02", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
		{"created_before=2030-01-02", nil},
		{"created_after=2030-01-02T05:30:00%2B01:00", []string{"echo-web", "delta-web", "charlie"}}, // 04:30 UTC
		{"sort=name_asc", []string{"alpha", "bravo", "charlie", "delta-web", "echo-web"}},
		{"sort=name_desc", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
		{"sort=created_at_asc", []string{"alpha", "bravo", "charlie", "delta-web", "echo-web"}},
		{"sort=created_at_desc", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
		{"sort=status_asc", []string{"alpha", "bravo", "charlie", "delta-web", "echo-web"}}, // ties: oldest first
		{"sort=status_desc", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
		// Everything at once.
		{"playspec_id=web&marquee_id=prod-eu&status=running&q=web&created_after=2030-01-02&sort=name_desc", []string{"delta-web"}},
		{"playspec_id=broken&marquee_id=local&name=bravo", []string{"bravo"}},
		{"playspec_id=broken&marquee_id=local&name=alpha", nil},
		// A blank value is no filter, as Rails reads it.
		{"status=&name=&playspec_id=", []string{"echo-web", "delta-web", "charlie", "bravo", "alpha"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := names(t, e.do("GET", "/api/playgrounds?"+tc.query, nil))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("GET /api/playgrounds?%s: %v, want %v", tc.query, got, tc.want)
			}
		})
	}
}

// Filters apply before paging: total counts the filtered items, and pages
// walk them in the requested order.
func TestPlaygroundListFiltersWithPaging(t *testing.T) {
	e := playgroundWorld(t)
	q := "marquee_id=prod-eu&sort=name_desc&per_page=2"
	p1 := e.do("GET", "/api/playgrounds?"+q+"&page=1", nil)
	p2 := e.do("GET", "/api/playgrounds?"+q+"&page=2", nil)
	if got := names(t, p1); !slices.Equal(got, []string{"echo-web", "delta-web"}) || total(t, p1) != 3 {
		t.Fatalf("page 1: %s", p1.body)
	}
	if got := names(t, p2); !slices.Equal(got, []string{"charlie"}) || total(t, p2) != 3 {
		t.Fatalf("page 2: %s", p2.body)
	}
	empty := e.do("GET", "/api/playgrounds?playspec_id=broken&status=error&page=1", nil)
	if got := names(t, empty); len(got) != 0 || total(t, empty) != 0 {
		t.Fatalf("no match: %s", empty.body)
	}
}

func TestBadListFilterIs422(t *testing.T) {
	e := playgroundWorld(t)
	for _, tc := range []struct{ path, param string }{
		{"/api/playgrounds?created_after=yesterday", "created_after"},
		{"/api/playgrounds?created_before=2030-13-45", "created_before"},
		{"/api/playgrounds?status=sleeping", "status"},
		{"/api/playgrounds?playspec_id=99", "playspec_id"},
		{"/api/playgrounds?playspec_id=nope", "playspec_id"},
		{"/api/playgrounds?marquee_id=nope", "marquee_id"},
		{"/api/playgrounds?marquee_id=42", "marquee_id"},
		{"/api/marquees?created_after=31/01/2030", "created_after"},
		{"/api/marquees?created_before=now", "created_before"},
		{"/api/marquees?status=unfunded", "status"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			expectInvalidParam(t, e.do("GET", tc.path, nil), tc.param)
		})
	}
}

// An unknown sort is 400 INVALID_SORT, as the platform answers; the old
// "-name" form is unknown too.
func TestUnknownSortIs400(t *testing.T) {
	e := playgroundWorld(t)
	for _, path := range []string{
		"/api/playgrounds?sort=size", "/api/playgrounds?sort=-name", "/api/playgrounds?sort=name",
		"/api/playgrounds?sort=name_up", "/api/marquees?sort=paid_asc", "/api/marquees?sort=_desc",
	} {
		r := e.do("GET", path, nil)
		expectStatus(t, r, http.StatusBadRequest)
		if code := r.errCode(t); code != "INVALID_SORT" {
			t.Fatalf("GET %s: code %q, want INVALID_SORT; body %s", path, code, r.body)
		}
	}
}

// per_page above 100 is clamped, not refused; a page past the end is
// empty with the real total.
func TestPerPageClampedAndPagePastEnd(t *testing.T) {
	e := playgroundWorld(t)
	r := e.do("GET", "/api/playgrounds?per_page=500", nil)
	expectStatus(t, r, http.StatusOK)
	if pp := r.json(t)["meta"].(map[string]any)["per_page"]; pp != float64(100) {
		t.Fatalf("per_page %v, want 100", pp)
	}
	r = e.do("GET", "/api/playgrounds?page=9", nil)
	if got := names(t, r); len(got) != 0 || total(t, r) != 5 {
		t.Fatalf("page past the end: %s", r.body)
	}
}

func TestMarqueeListFiltersFilter(t *testing.T) {
	e := newEnv(t, Config{})
	e.clock.Advance(time.Hour)
	for _, m := range []map[string]any{
		{"name": "edge-a", "host": "a.example.test"},
		{"name": "edge-b", "host": "b.example.test", "status": "disabled"},
	} {
		expectStatus(t, e.do("POST", "/api/marquees", map[string]any{"marquee": m}), http.StatusCreated)
		e.clock.Advance(time.Hour)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"edge-b", "edge-a", "unpaid", "prod-eu", "local"}},
		{"q=edge", []string{"edge-b", "edge-a"}},
		{"q=EU", []string{"prod-eu"}},
		{"name=edge-a", []string{"edge-a"}},
		{"name=edge", []string{"edge-b", "edge-a"}},
		{"status=disabled", []string{"edge-b"}},
		{"status=active", []string{"edge-a", "unpaid", "prod-eu", "local"}},
		{"created_after=2030-01-02T03:04:06Z", []string{"edge-b", "edge-a"}},
		{"created_before=2030-01-02T05:00:00Z", []string{"edge-a", "unpaid", "prod-eu", "local"}},
		{"created_after=2030-01-02T03:04:06Z&created_before=2030-01-02T05:00:00Z", []string{"edge-a"}},
		{"sort=name_desc", []string{"unpaid", "prod-eu", "local", "edge-b", "edge-a"}},
		{"sort=created_at_asc", []string{"local", "prod-eu", "unpaid", "edge-a", "edge-b"}},
		{"q=a&status=active&sort=name_desc&per_page=2", []string{"unpaid", "local"}},
		{"q=a&status=active&sort=name_desc&per_page=2&page=2", []string{"edge-a"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			got := names(t, e.do("GET", "/api/marquees?"+tc.query, nil))
			if !slices.Equal(got, tc.want) {
				t.Fatalf("GET /api/marquees?%s: %v, want %v", tc.query, got, tc.want)
			}
		})
	}
	if r := e.do("GET", "/api/marquees?q=a&status=active&per_page=2", nil); total(t, r) != 3 {
		t.Fatalf("filtered total: %s", r.body)
	}
}

func TestPlayspecs(t *testing.T) {
	e := newEnv(t, Config{})
	// Newest first; seeded together, the later id first.
	r := e.do("GET", "/api/playspecs", nil)
	if got := names(t, r); !slices.Equal(got, []string{"broken", "web"}) || total(t, r) != 2 {
		t.Fatalf("playspecs: %s", r.body)
	}
	for _, d := range r.json(t)["data"].([]any) {
		ps := d.(map[string]any)
		if num(ps["id"]) == 0 || ps["description"] == "" || ps["playground_count"] == nil {
			t.Fatalf("playspec %v", ps)
		}
	}
	page2 := e.do("GET", "/api/playspecs?per_page=1&page=2&sort=name_asc", nil)
	if got := names(t, page2); !slices.Equal(got, []string{"web"}) {
		t.Fatalf("page 2: %s", page2.body)
	}
	for _, ref := range []string{"1", "web"} {
		ps := e.do("GET", "/api/playspecs/"+ref, nil)
		expectStatus(t, ps, http.StatusOK)
		body := ps.json(t)
		svc := body["services"].([]any)[0].(map[string]any)
		if body["name"] != "web" || num(body["id"]) != 1 || svc["name"] != "web" {
			t.Fatalf("playspec %s: %s", ref, ps.body)
		}
	}
	missing := e.do("GET", "/api/playspecs/nope", nil)
	expectStatus(t, missing, http.StatusNotFound)
	if missing.errCode(t) != "RESOURCE_NOT_FOUND" {
		t.Fatalf("missing playspec: %s", missing.body)
	}
	// A create naming no playspec lists the known ones.
	bad := e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "nope"}})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	if !strings.Contains(string(bad.body), "web, broken") {
		t.Fatalf("unknown playspec: %s", bad.body)
	}
}

func TestMeHasThePlatformFields(t *testing.T) {
	e := newEnv(t, Config{})
	me := e.do("GET", "/api/me", nil).json(t)
	for _, f := range []string{"id", "username", "email", "avatar_url", "api_key_scopes"} {
		if _, ok := me[f]; !ok {
			t.Fatalf("/api/me lacks %s: %v", f, me)
		}
	}
	var scopes []string
	for _, s := range me["api_key_scopes"].([]any) {
		scopes = append(scopes, s.(string))
	}
	// Every scope of what the emulator serves.
	for _, want := range []string{"playgrounds:read", "playgrounds:write", "marquees:read", "marquees:write", "playspecs:read"} {
		if !slices.Contains(scopes, want) {
			t.Fatalf("scopes %v lack %s", scopes, want)
		}
	}
}

func TestExtendWithoutBody(t *testing.T) {
	e := newEnv(t, Config{})
	pg := e.createPG("ext", "web", nil)
	before, _ := time.Parse(time.RFC3339, pg["expires_at"].(string))
	e.clock.Advance(time.Hour)

	for i, opts := range [][]reqOpt{
		nil, // no body, no Content-Type
		{withHeader("Content-Type", "application/json")}, // a JSON client with nothing to say
	} {
		r := e.do("POST", "/api/playgrounds/ext/expiration", nil, opts...)
		expectStatus(t, r, http.StatusOK)
		body := r.json(t)
		keys := make([]string, 0, len(body))
		for k := range body {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !slices.Equal(keys, []string{"expires_at", "id", "time_remaining"}) {
			t.Fatalf("extend answers %v", body)
		}
		after, _ := time.Parse(time.RFC3339, body["expires_at"].(string))
		if want := before.Add(time.Duration(i+1) * 24 * time.Hour); !after.Equal(want) {
			t.Fatalf("extension %d: expires %v, want %v", i+1, after, want)
		}
		if want := int64(after.Sub(e.clock.Now()) / time.Second); num(body["time_remaining"]) != want || num(body["id"]) != num(pg["id"]) {
			t.Fatalf("extend answers %v, want time_remaining %d", body, want)
		}
	}
	// An explicit duration still counts, and is still checked.
	r := e.do("POST", "/api/playgrounds/ext/expiration", map[string]any{"duration_hours": 2})
	expectStatus(t, r, http.StatusOK)
	if after, _ := time.Parse(time.RFC3339, r.json(t)["expires_at"].(string)); !after.Equal(before.Add(50 * time.Hour)) {
		t.Fatalf("extend by 2h: %s", r.body)
	}
	expectInvalidParam(t, e.do("POST", "/api/playgrounds/ext/expiration", map[string]any{"duration_hours": 0}), "duration_hours")
}

func TestPlaygroundFieldNames(t *testing.T) {
	e := newEnv(t, Config{Speed: 50})
	pg := e.createPG("fields", "web", nil)
	if pg["maintenance_enabled"] != false || num(pg["time_remaining"]) != 24*3600 {
		t.Fatalf("playground %v", pg)
	}
	e.clock.Advance(90 * time.Minute)
	got := e.do("GET", "/api/playgrounds/fields", nil).json(t)
	if num(got["time_remaining"]) != 24*3600-90*60 {
		t.Fatalf("time_remaining %v after 90 min", got["time_remaining"])
	}
	st := e.do("GET", "/api/playgrounds/fields/status", nil).json(t)
	if _, ok := st["maintenance_enabled"]; !ok {
		t.Fatalf("status lacks maintenance_enabled: %v", st)
	}
	e.clock.Advance(25 * time.Hour)
	if got := e.do("GET", "/api/playgrounds/fields", nil).json(t); num(got["time_remaining"]) != 0 {
		t.Fatalf("time_remaining past expiry: %v", got["time_remaining"])
	}

	r := e.do("POST", "/api/playgrounds/fields/logs", map[string]any{"service": "web", "tail": 4})
	_, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	res := body["result"].(map[string]any)
	lines, entries := res["lines"].([]any), res["entries"].([]any)
	if res["service"] != "web" || res["source"] == "" || len(lines) != 4 || len(entries) != 4 {
		t.Fatalf("logs snapshot %v", res)
	}
	for i, en := range entries {
		en := en.(map[string]any)
		if en["service"] != "web" || en["line"] == "" || !strings.HasSuffix(lines[i].(string), en["line"].(string)) {
			t.Fatalf("entry %d %v for line %q", i, en, lines[i])
		}
	}
	r = e.do("POST", "/api/playgrounds/fields/logs", nil)
	_, body = e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if res := body["result"].(map[string]any); res["service"] != "all" || len(res["entries"].([]any)) != 100 {
		t.Fatalf("all-services snapshot: service %v, %d entries", res["service"], len(res["entries"].([]any)))
	}
}

// Every marquee field of docs/api.md is stored and returned, on create and
// on update; the write-only secrets never come back, nor reach the state.
func TestMarqueeFieldsRoundTrip(t *testing.T) {
	statePath := t.TempDir() + "/state.json"
	e := newEnv(t, Config{StatePath: statePath})
	secrets := map[string]string{
		"ssh_private_key": "-----BEGIN OPENSSH PRIVATE KEY-----\nc3NoLXNlY3JldA==\n-----END OPENSSH PRIVATE KEY-----",
		"tls_private_key": "-----BEGIN PRIVATE KEY-----\ndGxzLXNlY3JldA==\n-----END PRIVATE KEY-----",
		"dockerhub_token": "dckr_pat_SECRETTOKENVALUE",
	}
	fields := map[string]any{
		"name": "full", "host": "full.example.test", "port": float64(2200), "user": "deploy", "status": "disabled",
		"domains_input": "full.example.test, *.full.example.test", "https_enabled": true,
		"tls_certificate_source": "custom", "acme_email": "ops@example.test", "dockerhub_auth_enabled": true,
		"dockerhub_username": "acme", "build_platform": "linux/arm64", "prop_id": float64(7),
	}
	body := map[string]any{}
	for k, v := range fields {
		body[k] = v
	}
	for k, v := range secrets {
		body[k] = v
	}
	check := func(what string, r *resp, want map[string]any) {
		t.Helper()
		got := r.json(t)
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v", what, k, got[k], v)
			}
		}
		for _, f := range []string{"id", "paid_until", "billing_runtime_active", "created_at", "updated_at"} {
			if _, ok := got[f]; !ok {
				t.Errorf("%s: lacks %s", what, f)
			}
		}
		for k, v := range secrets {
			if _, ok := got[k]; ok || strings.Contains(string(r.body), v[len(v)-12:]) {
				t.Errorf("%s: secret %s came back: %s", what, k, r.body)
			}
		}
	}
	created := e.do("POST", "/api/marquees", map[string]any{"marquee": body})
	expectStatus(t, created, http.StatusCreated)
	check("create", created, fields)
	if created.json(t)["billing_runtime_active"] != true {
		t.Errorf("a new marquee is funded: %s", created.body)
	}
	check("get", e.do("GET", "/api/marquees/full", nil), fields)

	update := map[string]any{
		"status": "active", "domains_input": "new.example.test", "https_enabled": false,
		"tls_certificate_source": "letsencrypt", "acme_email": "tls@example.test", "dockerhub_auth_enabled": false,
		"build_platform": "linux/amd64", "prop_id": nil, "port": float64(22),
	}
	upd := e.do("PATCH", "/api/marquees/full", map[string]any{"marquee": update})
	expectStatus(t, upd, http.StatusOK)
	check("update", upd, update)
	check("get after update", e.do("GET", "/api/marquees/full", nil), update)
	got := e.do("GET", "/api/marquees/full", nil).json(t)
	if got["dockerhub_username"] != "acme" || got["name"] != "full" || got["host"] != "full.example.test" {
		t.Errorf("untouched fields changed: %v", got)
	}
	raw := readFile(t, statePath)
	for k, v := range secrets {
		if strings.Contains(raw, v[len(v)-12:]) {
			t.Errorf("secret %s reached the state file", k)
		}
	}

	// status is active or disabled, nothing else; other fields are checked.
	for _, tc := range []struct {
		field string
		value any
	}{
		{"status", "unfunded"}, {"status", "paused"}, {"status", 1},
		{"https_enabled", "yes"}, {"prop_id", "seven"}, {"acme_email", "not-an-email"},
	} {
		r := e.do("PATCH", "/api/marquees/full", map[string]any{"marquee": map[string]any{tc.field: tc.value}})
		expectInvalidParam(t, r, tc.field)
	}
	r := e.do("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "hub", "host": "h.example.test", "dockerhub_auth_enabled": true}})
	expectInvalidParam(t, r, "dockerhub_username")

	// A disabled marquee takes no new playgrounds.
	expectStatus(t, e.do("PATCH", "/api/marquees/full", map[string]any{"marquee": map[string]any{"status": "disabled"}}), http.StatusOK)
	expectInvalidParam(t, e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{
		"name": "on-disabled", "playspec_id": "web", "marquee_id": "full"}}), "marquee_id")
}

func TestAsyncShapes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		legacy bool
	}{{"default", false}, {"legacy", true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Config{LegacyAsync: tc.legacy, Speed: 50})
			r := e.do("POST", "/api/marquees/prod-eu/connection_tests", nil)
			_, ok := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
			e.createPG("bad", "broken", nil)
			r = e.do("POST", "/api/playgrounds/bad/operations", map[string]any{"action_type": "rollout"})
			_, failed := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)

			result, hasResult := ok["result"].(map[string]any)
			if tc.legacy {
				// Result fields at the top level; failure as error, error_code, ...
				if hasResult || ok["success"] != true || ok["message"] == nil || ok["status"] != "success" {
					t.Fatalf("legacy success %v", ok)
				}
				if failed["error_code"] != "PLAYGROUND_BUILD_FAILED" || failed["error"] == nil || failed["code"] != nil {
					t.Fatalf("legacy error %v", failed)
				}
				return
			}
			if !hasResult || result["success"] != true || ok["success"] != nil || ok["status"] != "success" {
				t.Fatalf("success %v", ok)
			}
			if failed["code"] != "PLAYGROUND_BUILD_FAILED" || failed["message"] == nil || failed["error_code"] != nil {
				t.Fatalf("error %v", failed)
			}
		})
	}
}

func TestUnservedEndpointsAre404Envelopes(t *testing.T) {
	e := newEnv(t, Config{})
	for _, p := range []string{"/api/props/1/commits", "/api/agents/1", "/api/playspecs/1/nope", "/api/playgrounds/x/compose", "/api"} {
		r := e.do("GET", p, nil)
		expectStatus(t, r, http.StatusNotFound)
		if r.errCode(t) != "RESOURCE_NOT_FOUND" {
			t.Fatalf("%s: %s", p, r.body)
		}
	}
}
