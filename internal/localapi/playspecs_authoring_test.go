package localapi

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

const webCompose = "services:\n  web:\n    image: nginx:alpine\n    labels:\n      fibe.gg/port: \"8080\"\n  db:\n    image: postgres:16\n"

func createPlayspec(t *testing.T, e *env, obj map[string]any) map[string]any {
	t.Helper()
	r := e.do("POST", "/api/playspecs", map[string]any{"playspec": obj})
	expectStatus(t, r, http.StatusCreated)
	return r.json(t)
}

func TestPlayspecCRUD(t *testing.T) {
	e := newEnv(t, Config{})
	ps := createPlayspec(t, e, map[string]any{
		"name": "shop", "description": "A shop", "base_compose_yaml": webCompose, "persist_volumes": true,
		"services":       []any{map[string]any{"name": "web", "type": "dynamic", "prop_id": "shop-repo"}},
		"trigger_config": map[string]any{"enabled": true, "event_type": "push", "branch": "main"},
	})
	if ps["name"] != "shop" || ps["persist_volumes"] != true || ps["trigger_enabled"] != true || ps["base_compose_yaml"] != webCompose {
		t.Fatalf("created: %v", ps)
	}
	svc := ps["services"].([]any)
	if len(svc) != 2 || svc[0].(map[string]any)["type"] != "dynamic" || svc[0].(map[string]any)["public"] != true ||
		num(svc[0].(map[string]any)["port"]) != 8080 || svc[1].(map[string]any)["public"] != false {
		t.Fatalf("services: %v", svc)
	}
	id := itoa(int(num(ps["id"])))

	for _, ref := range []string{id, "shop"} {
		got := e.do("GET", "/api/playspecs/"+ref, nil)
		expectStatus(t, got, http.StatusOK)
		body := got.json(t)
		if body["trigger_config"].(map[string]any)["branch"] != "main" || body["mounted_files"] == nil || body["credentials"] == nil {
			t.Fatalf("get %s: %s", ref, got.body)
		}
	}
	// The list shows the summary, not the detail.
	list := e.do("GET", "/api/playspecs?name=sho", nil)
	if got := names(t, list); !slices.Equal(got, []string{"shop"}) {
		t.Fatalf("name filter: %s", list.body)
	}
	if item := list.json(t)["data"].([]any)[0].(map[string]any); item["base_compose_yaml"] != nil || item["playground_count"] == nil {
		t.Fatalf("list item: %v", item)
	}
	if got := names(t, e.do("GET", "/api/playspecs?q=A+SHOP", nil)); !slices.Equal(got, []string{"shop"}) {
		t.Fatalf("q searches the description: %v", got)
	}
	if got := names(t, e.do("GET", "/api/playspecs?created_after=2099-01-01", nil)); len(got) != 0 {
		t.Fatalf("created_after: %v", got)
	}
	if r := e.do("GET", "/api/playspecs?sort=colour_asc", nil); r.status != http.StatusBadRequest || r.errCode(t) != "INVALID_SORT" {
		t.Fatalf("unknown sort: %s", r.body)
	}

	up := e.do("PATCH", "/api/playspecs/shop", map[string]any{"playspec": map[string]any{"name": "shop-2", "description": "Changed"}})
	expectStatus(t, up, http.StatusOK)
	if body := up.json(t); body["name"] != "shop-2" || body["description"] != "Changed" || body["persist_volumes"] != true {
		t.Fatalf("update: %s", up.body)
	}
	services := e.do("GET", "/api/playspecs/shop-2/services", nil)
	expectStatus(t, services, http.StatusOK)
	if !bytes.HasPrefix(bytes.TrimSpace(services.body), []byte("[")) || !strings.Contains(string(services.body), `"name":"db"`) {
		t.Fatalf("services: %s", services.body)
	}

	expectStatus(t, e.do("DELETE", "/api/playspecs/"+id, nil), http.StatusNoContent)
	gone := e.do("GET", "/api/playspecs/"+id, nil)
	expectStatus(t, gone, http.StatusNotFound)
	if gone.errCode(t) != "RESOURCE_NOT_FOUND" {
		t.Fatalf("after delete: %s", gone.body)
	}
}

func TestPlayspecValidation(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tc := range []struct {
		name  string
		obj   map[string]any
		field string
	}{
		{"no name", map[string]any{"base_compose_yaml": webCompose}, "name"},
		{"taken name", map[string]any{"name": "web", "base_compose_yaml": webCompose}, "name"},
		{"no compose", map[string]any{"name": "a"}, "base_compose_yaml"},
		{"blank compose", map[string]any{"name": "a", "base_compose_yaml": "  "}, "base_compose_yaml"},
		{"not yaml", map[string]any{"name": "a", "base_compose_yaml": "this: is: not: yaml"}, "base_compose_yaml"},
		{"no services", map[string]any{"name": "a", "base_compose_yaml": "version: '3'\n"}, "base_compose_yaml"},
		{"unknown label", map[string]any{"name": "a", "base_compose_yaml": "services:\n  w:\n    image: a:1\n    labels: {fibe.gg/x: y}\n"}, "base_compose_yaml"},
		{"duplicate service", map[string]any{"name": "a", "base_compose_yaml": webCompose,
			"services": []any{map[string]any{"name": "web", "type": "static"}, map[string]any{"name": "web", "type": "static"}}}, "services[1].name"},
		{"bad type", map[string]any{"name": "a", "base_compose_yaml": webCompose, "services": []any{map[string]any{"name": "web", "type": "invalid"}}}, "services[0].type"},
		{"not in compose", map[string]any{"name": "a", "base_compose_yaml": webCompose, "services": []any{map[string]any{"name": "cache"}}}, "services[0].name"},
		{"bad port", map[string]any{"name": "a", "base_compose_yaml": webCompose,
			"services": []any{map[string]any{"name": "web", "exposure": map[string]any{"enabled": true, "port": 70000}}}}, "services[0].exposure.port"},
		{"bad subdomain", map[string]any{"name": "a", "base_compose_yaml": webCompose,
			"services": []any{map[string]any{"name": "web", "exposure": map[string]any{"enabled": true, "subdomain": "Not_OK"}}}}, "services[0].exposure.subdomain"},
		{"job mode unwatched", map[string]any{"name": "a", "base_compose_yaml": webCompose, "job_mode": true}, "job_mode"},
		{"config not object", map[string]any{"name": "a", "base_compose_yaml": webCompose, "muti_config": "on"}, "muti_config"},
		{"bool not bool", map[string]any{"name": "a", "base_compose_yaml": webCompose, "persist_volumes": "yes"}, "persist_volumes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/api/playspecs", map[string]any{"playspec": tc.obj})
			expectStatus(t, r, http.StatusUnprocessableEntity)
			if r.errCode(t) != "VALIDATION_FAILED" || r.errDetails(t)[tc.field] == nil {
				t.Fatalf("%s", r.body)
			}
		})
	}
	// The YAML error names its line and column.
	r := e.do("POST", "/api/playspecs", map[string]any{"playspec": map[string]any{"name": "a", "base_compose_yaml": "services:\n  web: [\n"}})
	if !strings.Contains(string(r.body), "line 3, column 1") {
		t.Fatalf("yaml error: %s", r.body)
	}
	// A watched service (label or definition) makes job mode valid.
	job := createPlayspec(t, e, map[string]any{"name": "job", "job_mode": true,
		"base_compose_yaml": "services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n"})
	if job["job_mode"] != true {
		t.Fatalf("job: %v", job)
	}
	createPlayspec(t, e, map[string]any{"name": "job-2", "job_mode": true, "base_compose_yaml": webCompose,
		"services": []any{map[string]any{"name": "db", "type": "static", "job_watch": true}}})
	jobs := e.do("GET", "/api/playspecs?job_mode=true&sort=name_asc", nil)
	if got := names(t, jobs); !slices.Equal(got, []string{"job", "job-2"}) {
		t.Fatalf("job_mode filter: %s", jobs.body)
	}
	bad := e.do("GET", "/api/playspecs?job_mode=maybe", nil)
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	// Updating to a broken compose changes nothing.
	expectStatus(t, e.do("PATCH", "/api/playspecs/job", map[string]any{"playspec": map[string]any{"base_compose_yaml": "services: {}\n"}}), http.StatusUnprocessableEntity)
	if got := e.do("GET", "/api/playspecs/job", nil).json(t); !strings.Contains(got["base_compose_yaml"].(string), "worker") {
		t.Fatalf("a refused update changed the playspec: %v", got)
	}
}

// multipartUpload builds the body the SDKs send to POST …/mounts.
func multipartUpload(t *testing.T, fields map[string]string, filename, content string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreateFormFile("file", filename)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write([]byte(content))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

func TestPlayspecMountedFiles(t *testing.T) {
	e := newEnv(t, Config{})
	createPlayspec(t, e, map[string]any{"name": "mf", "base_compose_yaml": webCompose})
	body, ct := multipartUpload(t, map[string]string{"mount_path": "/etc/nginx/nginx.conf", "readonly": "true", "target_services": "web"}, "nginx conf.txt", "worker_processes 1;")
	r := e.do("POST", "/api/playspecs/mf/mounts", body, withHeader("Content-Type", ct))
	expectStatus(t, r, http.StatusCreated)
	files := e.do("GET", "/api/playspecs/mf", nil).json(t)["mounted_files"].([]any)
	if len(files) != 1 {
		t.Fatalf("mounted files: %v", files)
	}
	f := files[0].(map[string]any)
	if f["filename"] != "nginx_conf.txt" || num(f["byte_size"]) != 19 || f["mount_path"] != "/etc/nginx/nginx.conf" || f["readonly"] != true ||
		!strings.HasPrefix(f["content_type"].(string), "text/plain") {
		t.Fatalf("mounted file: %v", f)
	}
	// Bad uploads.
	for _, tc := range []struct {
		fields map[string]string
		field  string
	}{
		{map[string]string{"mount_path": "etc/x"}, "mount_path"},
		{map[string]string{}, "mount_path"},
		{map[string]string{"mount_path": "/etc/y", "readonly": "sometimes"}, "readonly"},
		{map[string]string{"mount_path": "/etc/y", "target_services": "cache"}, "target_services"},
		{map[string]string{"mount_path": "/etc/nginx/nginx.conf"}, "mount_path"},
	} {
		b, ct := multipartUpload(t, tc.fields, "other.conf", "x")
		r := e.do("POST", "/api/playspecs/mf/mounts", b, withHeader("Content-Type", ct))
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if r.errDetails(t)[tc.field] == nil {
			t.Fatalf("%v: %s", tc.fields, r.body)
		}
	}
	json := e.do("POST", "/api/playspecs/mf/mounts", map[string]any{"mount_path": "/x"})
	expectStatus(t, json, http.StatusUnsupportedMediaType)

	up := e.do("PATCH", "/api/playspecs/mf/mounts", map[string]any{"filename": "nginx_conf.txt", "mount_path": "/etc/nginx/conf.d/default.conf", "readonly": false})
	expectStatus(t, up, http.StatusOK)
	if f := up.json(t)["mounted_files"].([]any)[0].(map[string]any); f["mount_path"] != "/etc/nginx/conf.d/default.conf" || f["readonly"] != false {
		t.Fatalf("update: %s", up.body)
	}
	expectStatus(t, e.do("PATCH", "/api/playspecs/mf/mounts", map[string]any{"filename": "nope", "mount_path": "/a"}), http.StatusNotFound)
	// A DELETE with a JSON body.
	rm := e.do("DELETE", "/api/playspecs/mf/mounts", map[string]any{"filename": "nginx_conf.txt"})
	expectStatus(t, rm, http.StatusOK)
	if files := rm.json(t)["mounted_files"].([]any); len(files) != 0 {
		t.Fatalf("after remove: %s", rm.body)
	}
	expectStatus(t, e.do("DELETE", "/api/playspecs/mf/mounts", map[string]any{"filename": "nginx_conf.txt"}), http.StatusNotFound)
	expectStatus(t, e.do("DELETE", "/api/playspecs/mf/mounts", nil), http.StatusUnprocessableEntity)
}

func TestPlayspecRegistryCredentials(t *testing.T) {
	e := newEnv(t, Config{})
	createPlayspec(t, e, map[string]any{"name": "reg", "base_compose_yaml": webCompose})
	r := e.do("POST", "/api/playspecs/reg/registry_credentials", map[string]any{
		"registry_type": "ghcr", "registry_url": "ghcr.io", "username": "u", "secret": "ghp_not_a_real_token"})
	expectStatus(t, r, http.StatusCreated)
	if strings.Contains(string(r.body), "ghp_not_a_real_token") {
		t.Fatalf("the secret came back: %s", r.body)
	}
	creds := r.json(t)["credentials"].([]any)
	cred := creds[0].(map[string]any)
	id, ok := cred["id"].(string)
	if len(creds) != 1 || !ok || id == "" || cred["registry_type"] != "ghcr" || cred["username"] != "u" {
		t.Fatalf("credentials: %s", r.body)
	}
	detail := e.do("GET", "/api/playspecs/reg", nil)
	if strings.Contains(string(detail.body), "ghp_not_a_real_token") || len(detail.json(t)["credentials"].([]any)) != 1 {
		t.Fatalf("detail: %s", detail.body)
	}
	for _, bad := range []map[string]any{
		{"registry_type": "ftp", "registry_url": "x", "username": "u", "secret": "s"},
		{"registry_type": "ghcr", "registry_url": "ghcr.io", "username": "", "secret": "s"},
		{"registry_type": "ghcr", "registry_url": "ghcr.io", "username": "u"},
	} {
		expectStatus(t, e.do("POST", "/api/playspecs/reg/registry_credentials", bad), http.StatusUnprocessableEntity)
	}
	expectStatus(t, e.do("DELETE", "/api/playspecs/reg/registry_credentials", map[string]any{"credential_id": "99"}), http.StatusNotFound)
	rm := e.do("DELETE", "/api/playspecs/reg/registry_credentials", map[string]any{"credential_id": id})
	expectStatus(t, rm, http.StatusOK)
	if len(rm.json(t)["credentials"].([]any)) != 0 {
		t.Fatalf("after remove: %s", rm.body)
	}
}

func TestComposeValidations(t *testing.T) {
	e := newEnv(t, Config{})
	ok := e.do("POST", "/api/compose_validations", map[string]any{"compose_yaml": webCompose})
	expectStatus(t, ok, http.StatusOK)
	body := ok.json(t)
	if body["valid"] != true || len(body["errors"].([]any)) != 0 || len(body["services"].([]any)) != 2 {
		t.Fatalf("valid: %s", ok.body)
	}
	bad := e.do("POST", "/api/compose_validations", map[string]any{"compose_yaml": "services:\n  web:\n    ports: [\"80\"]\n"}).json(t)
	if bad["valid"] != false || !strings.Contains(bad["errors"].([]any)[0].(string), "needs an image or a build") {
		t.Fatalf("invalid: %v", bad)
	}
	job := e.do("POST", "/api/compose_validations", map[string]any{"compose_yaml": webCompose, "job_mode": true}).json(t)
	if job["valid"] != false {
		t.Fatalf("job mode without a watched service: %v", job)
	}
	expectStatus(t, e.do("POST", "/api/compose_validations", map[string]any{}), http.StatusUnprocessableEntity)
}

// The seeded playspecs keep their behaviour; `broken` is repaired by a
// credential for the private registry its image is on.
func TestBrokenPlayspecNeedsRegistryCredential(t *testing.T) {
	e := newEnv(t, Config{Speed: 50})
	ps := e.do("GET", "/api/playspecs/broken", nil).json(t)
	if ps["services"].([]any)[0].(map[string]any)["image"] != "registry.fibe.test/broken/web:latest" {
		t.Fatalf("broken: %v", ps)
	}
	expectStatus(t, e.do("POST", "/api/playspecs/broken/registry_credentials", map[string]any{
		"registry_type": "custom", "registry_url": "https://registry.fibe.test", "username": "u", "secret": "s"}), http.StatusCreated)
	e.createPG("fixed", "broken", nil)
	r := e.do("POST", "/api/playgrounds/fixed/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	seen, body := e.pollUntil(r.json(t)["status_url"].(string), 20*time.Millisecond)
	if seen[len(seen)-1] != "success" || body["result"].(map[string]any)["status"] != "running" {
		t.Fatalf("rollout with the credential: %v %v", seen, body)
	}
	// While the playground lives, the playspec cannot be deleted.
	del := e.do("DELETE", "/api/playspecs/broken", nil)
	expectStatus(t, del, http.StatusConflict)
	if del.errDetails(t)["reason"] != "playspec_in_use" {
		t.Fatalf("delete in use: %s", del.body)
	}
}

// as is e with another key.
func (e *env) as(key string) *env {
	c := *e
	c.key = key
	return &c
}

// mint makes a key of player with scopes and returns its token.
func (e *env) mint(player int64, scopes ...string) string {
	e.t.Helper()
	var token string
	if err := e.srv.store.update(e.srv.now(), func(st *state) change {
		_, token = st.mintKey(player, "test", scopes, nil, false, e.srv.now())
		return changedDurable
	}); err != nil {
		e.t.Fatal(err)
	}
	return token
}

func TestPlayspecScopesAndOwners(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	createPlayspec(t, e, map[string]any{"name": "mine", "base_compose_yaml": webCompose})
	body, ct := multipartUpload(t, map[string]string{"mount_path": "/a"}, "a.txt", "a")
	mutations := []struct {
		method, path string
		body         any
		opts         []reqOpt
	}{
		{"POST", "/api/playspecs", map[string]any{"playspec": map[string]any{"name": "x", "base_compose_yaml": webCompose}}, nil},
		{"PATCH", "/api/playspecs/mine", map[string]any{"playspec": map[string]any{"description": "x"}}, nil},
		{"POST", "/api/playspecs/mine/mounts", body, []reqOpt{withHeader("Content-Type", ct)}},
		{"PATCH", "/api/playspecs/mine/mounts", map[string]any{"filename": "a.txt", "mount_path": "/b"}, nil},
		{"DELETE", "/api/playspecs/mine/mounts", map[string]any{"filename": "a.txt"}, nil},
		{"POST", "/api/playspecs/mine/registry_credentials", map[string]any{"registry_type": "ghcr", "registry_url": "ghcr.io", "username": "u", "secret": "s"}, nil},
		{"DELETE", "/api/playspecs/mine/registry_credentials", map[string]any{"credential_id": "1"}, nil},
		{"DELETE", "/api/playspecs/mine", nil, nil},
	}
	reads := []string{"/api/playspecs", "/api/playspecs/mine", "/api/playspecs/mine/services"}

	// A key of another family is refused everything, before any lookup.
	other := e.as(e.mint(1, "agents:read"))
	for _, p := range reads {
		if r := other.do("GET", p, nil); r.status != http.StatusForbidden || r.errCode(t) != "FORBIDDEN" {
			t.Fatalf("GET %s with agents:read: %s", p, r.body)
		}
	}
	// A read-only key reads and is refused every mutation.
	ro := e.as(e.mint(1, "playspecs:read"))
	for _, p := range reads {
		expectStatus(t, ro.do("GET", p, nil), http.StatusOK)
	}
	for _, m := range mutations {
		if r := ro.do(m.method, m.path, m.body, m.opts...); r.status != http.StatusForbidden {
			t.Fatalf("%s %s with playspecs:read: %s", m.method, m.path, r.body)
		}
	}
	if r := ro.do("POST", "/api/playspecs", map[string]any{"playspec": map[string]any{}}); r.status != http.StatusForbidden {
		t.Fatalf("the scope is checked before the body: %s", r.body)
	}
	// Another player sees none of it: 404, as for an unknown playspec.
	b := e.as(DefaultAPIKey + "_player2")
	for _, p := range reads[1:] {
		if r := b.do("GET", p, nil); r.status != http.StatusNotFound || r.errCode(t) != "RESOURCE_NOT_FOUND" {
			t.Fatalf("GET %s as player 2: %s", p, r.body)
		}
	}
	for _, m := range mutations[1:] {
		if r := b.do(m.method, m.path, m.body, m.opts...); r.status != http.StatusNotFound {
			t.Fatalf("%s %s as player 2: %s", m.method, m.path, r.body)
		}
	}
	if got := names(t, b.do("GET", "/api/playspecs?sort=name_asc", nil)); !slices.Equal(got, []string{"broken", "web"}) {
		t.Fatalf("player 2's playspecs: %v", got)
	}
	// Player 2 may use the same name.
	createPlayspec(t, b, map[string]any{"name": "mine", "base_compose_yaml": webCompose})
	// A write key does every mutation, delete included.
	rw := e.as(e.mint(1, "playspecs:write"))
	for _, m := range mutations[1:] {
		if r := rw.do(m.method, m.path, m.body, m.opts...); r.status >= 300 {
			t.Fatalf("%s %s with playspecs:write: %s", m.method, m.path, r.body)
		}
	}
	// Checking a compose needs only a valid key.
	expectStatus(t, other.do("POST", "/api/compose_validations", map[string]any{"compose_yaml": webCompose}), http.StatusOK)
}

// Every mutation is recorded as an event of the playspec.
func TestPlayspecEvents(t *testing.T) {
	e := newEnv(t, Config{})
	createPlayspec(t, e, map[string]any{"name": "ev", "base_compose_yaml": webCompose})
	expectStatus(t, e.do("PATCH", "/api/playspecs/ev", map[string]any{"playspec": map[string]any{"description": "d"}}), http.StatusOK)
	expectStatus(t, e.do("DELETE", "/api/playspecs/ev", nil), http.StatusNoContent)
	var actions []string
	_ = e.srv.store.update(e.srv.now(), func(st *state) change {
		for _, a := range st.AuditLogs {
			if a.ResourceType == "Playspec" {
				actions = append(actions, a.Action)
			}
		}
		return unchanged
	})
	if !slices.Equal(actions, []string{"playspec.created", "playspec.updated", "playspec.destroyed"}) {
		t.Fatalf("events: %v", actions)
	}
}
