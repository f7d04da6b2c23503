package localapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// createTemplate creates a template of the env's player and returns it.
func (e *env) createTemplate(name, body string) map[string]any {
	e.t.Helper()
	r := e.do("POST", "/api/import_templates", map[string]any{
		"import_template": map[string]any{"name": name, "description": "d"}, "template_body": body})
	expectStatus(e.t, r, http.StatusCreated)
	return r.json(e.t)
}

func templatePath(tpl map[string]any, sub string) string {
	p := "/api/import_templates/" + strconv.FormatInt(num(tpl["id"]), 10)
	if sub != "" {
		p += "/" + sub
	}
	return p
}

func TestTemplateCRUD(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("GET", "/api/template_categories", nil)
	expectStatus(t, r, http.StatusOK)
	cats, _ := r.json(t)["data"].([]any)
	if len(cats) == 0 {
		t.Fatalf("no categories: %s", r.body)
	}
	cat := cats[0].(map[string]any)
	if cat["name"] == "" || cat["slug"] == "" {
		t.Fatalf("category %v", cat)
	}

	r = e.do("POST", "/api/import_templates", map[string]any{
		"import_template": map[string]any{"name": "shop", "category_id": cat["id"]},
		"template_body":   "services:\n  web:\n    image: nginx:${TAG:-alpine}\n"})
	expectStatus(t, r, http.StatusCreated)
	tpl := r.json(t)
	versions, _ := tpl["versions"].([]any)
	if tpl["category"] != cat["name"] || num(tpl["latest_version"]) != 1 || len(versions) != 1 || tpl["latest_version_tag"] != "v1" {
		t.Fatalf("created %s", r.body)
	}
	if v := versions[0].(map[string]any); v["public"] != false || !strings.Contains(v["template_body"].(string), "nginx") {
		t.Fatalf("first version %v", v)
	}
	if vars, _ := tpl["variables"].(map[string]any); vars["TAG"] != "alpine" {
		t.Fatalf("variables %v", tpl["variables"])
	}
	if _, err := time.Parse(time.RFC3339, tpl["created_at"].(string)); err != nil {
		t.Fatalf("created_at %v: %v", tpl["created_at"], err)
	}

	// The body inside the wrapper is not where the platform reads it.
	r = e.do("POST", "/api/import_templates", map[string]any{
		"import_template": map[string]any{"name": "inside", "template_body": "services: {}"}})
	if expectStatus(t, r, http.StatusUnprocessableEntity); r.errDetails(t)["template_body"] == nil {
		t.Fatalf("body inside the wrapper: %s", r.body)
	}
	r = e.do("POST", "/api/import_templates", map[string]any{
		"import_template": map[string]any{"name": "shop"}, "template_body": "x: 1"})
	expectStatus(t, r, http.StatusUnprocessableEntity)

	expectStatus(t, e.do("GET", "/api/import_templates/shop", nil), http.StatusOK)
	r = e.do("PATCH", templatePath(tpl, ""), map[string]any{"import_template": map[string]any{"name": "shop-2", "category_id": 0}})
	if expectStatus(t, r, http.StatusOK); r.json(t)["name"] != "shop-2" || r.json(t)["category"] != "Uncategorized" {
		t.Fatalf("updated %s", r.body)
	}
	r = e.do("GET", "/api/import_templates?name=hop-&sort=name_asc", nil)
	if expectStatus(t, r, http.StatusOK); num(r.json(t)["meta"].(map[string]any)["total"]) != 1 {
		t.Fatalf("name filter: %s", r.body)
	}
	for q, want := range map[string]int64{"category_id=uncategorized": 1, "category_id=" + strconv.FormatInt(num(cat["id"]), 10): 0, "category_id=nope": 0} {
		r := e.do("GET", "/api/import_templates?system=false&"+q, nil)
		if expectStatus(t, r, http.StatusOK); num(r.json(t)["meta"].(map[string]any)["total"]) != want {
			t.Errorf("%s: %s", q, r.body)
		}
	}
	expectStatus(t, e.do("GET", "/api/import_templates?sort=bogus_asc", nil), http.StatusBadRequest)
	expectStatus(t, e.do("DELETE", templatePath(tpl, ""), nil), http.StatusNoContent)
	expectStatus(t, e.do("GET", templatePath(tpl, ""), nil), http.StatusNotFound)
}

// The publication toggle flips on every call; the same Idempotency-Key
// is replayed, never applied again.
func TestTemplatePublicationReplayIsNotReapplied(t *testing.T) {
	e := newEnv(t, Config{})
	tpl := e.createTemplate("pub", "services: {}\n")
	r := e.do("POST", templatePath(tpl, "versions"), map[string]any{"template_body": "services: {a: {image: x}}\n", "changelog": "two"})
	expectStatus(t, r, http.StatusCreated)
	v2 := r.json(t)
	if num(v2["version"]) != 2 || v2["public"] != false || v2["template_body"] == "" {
		t.Fatalf("version 2 %s", r.body)
	}
	pub := templatePath(tpl, "versions/"+strconv.FormatInt(num(v2["id"]), 10)+"/publication")
	first := e.do("PATCH", pub, nil, withIdem("flip-1"))
	if expectStatus(t, first, http.StatusOK); first.json(t)["public"] != true {
		t.Fatalf("first toggle %s", first.body)
	}
	again := e.do("PATCH", pub, nil, withIdem("flip-1"))
	if again.header.Get("X-Idempotent-Replayed") != "true" || again.json(t)["public"] != true {
		t.Fatalf("replay: %v %s", again.header, again.body)
	}
	detail := e.do("GET", templatePath(tpl, ""), nil).json(t)
	last := detail["versions"].([]any)[1].(map[string]any)
	if last["public"] != true {
		t.Fatalf("after the replay the version is %v", last)
	}
	if r := e.do("PATCH", pub, nil, withIdem("flip-2")); r.json(t)["public"] != false {
		t.Fatalf("second toggle %s", r.body)
	}

	// Versions: newest first; the only version cannot go.
	r = e.do("GET", templatePath(tpl, "versions"), nil)
	data := r.json(t)["data"].([]any)
	if len(data) != 2 || num(data[0].(map[string]any)["version"]) != 2 {
		t.Fatalf("versions %s", r.body)
	}
	expectStatus(t, e.do("DELETE", templatePath(tpl, "versions/"+strconv.FormatInt(num(v2["id"]), 10)), nil), http.StatusNoContent)
	v1 := num(data[1].(map[string]any)["id"])
	expectStatus(t, e.do("DELETE", templatePath(tpl, "versions/"+strconv.FormatInt(v1, 10)), nil), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("DELETE", templatePath(tpl, "versions/999999"), nil), http.StatusNotFound)
}

// Another player sees a template only once it has a public version, may
// then fork it but never change it; one's own cannot be forked.
func TestTemplateVisibilityAndForks(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	b := e.as(e.srv.primaryToken(2))
	tpl := e.createTemplate("mine", "services: {}\n")
	r := e.do("POST", templatePath(tpl, "forks"), nil)
	if expectStatus(t, r, http.StatusUnprocessableEntity); r.errCode(t) != "FORK_FAILED" {
		t.Fatalf("own fork %s", r.body)
	}
	expectStatus(t, b.do("GET", templatePath(tpl, ""), nil), http.StatusNotFound)
	expectStatus(t, b.do("POST", templatePath(tpl, "forks"), nil), http.StatusNotFound)

	vid := strconv.FormatInt(num(tpl["latest_version_id"]), 10)
	expectStatus(t, e.do("PATCH", templatePath(tpl, "versions/"+vid+"/publication"), nil), http.StatusOK)
	r = e.do("POST", templatePath(tpl, "versions"), map[string]any{"template_body": "services: {}\n"})
	expectStatus(t, r, http.StatusCreated)
	seen := b.do("GET", templatePath(tpl, ""), nil)
	if expectStatus(t, seen, http.StatusOK); len(seen.json(t)["versions"].([]any)) != 1 {
		t.Fatalf("another player sees the private versions too: %s", seen.body)
	}
	expectStatus(t, b.do("PATCH", templatePath(tpl, ""), map[string]any{"import_template": map[string]any{"name": "theirs"}}), http.StatusNotFound)
	expectStatus(t, b.do("DELETE", templatePath(tpl, ""), nil), http.StatusNotFound)
	r = b.do("POST", templatePath(tpl, "forks"), nil)
	expectStatus(t, r, http.StatusCreated)
	if fork := r.json(t); fork["name"] != "mine-fork" || fork["id"] == tpl["id"] || fork["author"] == tpl["author"] {
		t.Fatalf("fork %s", r.body)
	}
	r = b.do("GET", "/api/import_templates?system=true", nil)
	for _, it := range r.json(t)["data"].([]any) {
		if it.(map[string]any)["system"] != true {
			t.Fatalf("system=true listed %v", it)
		}
	}
	if num(r.json(t)["meta"].(map[string]any)["total"]) == 0 {
		t.Fatal("no system templates seeded")
	}
}

func TestTemplateImagesSearchAndOperations(t *testing.T) {
	e := newEnv(t, Config{})
	tpl := e.createTemplate("pics", "services:\n  web:\n    image: nginx\n")
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
	r := e.do("POST", templatePath(tpl, "images"), map[string]any{"filename": "../a b.png", "image_data": png, "content_type": "image/png"})
	if expectStatus(t, r, http.StatusOK); !strings.HasSuffix(r.json(t)["image_url"].(string), "/a_b.png") {
		t.Fatalf("image %s", r.body)
	}
	expectStatus(t, e.do("POST", templatePath(tpl, "images"), map[string]any{"filename": "a.png", "image_data": "not base64!"}), http.StatusBadRequest)

	for q, want := range map[string]int{
		"q=pics":                     1,
		"q=PIC":                      1,
		"q=nothing-like-it":          0,
		"q=nginx&template_id=pics":   1,
		"q=pic%5Bs%5D%24&regex=true": 1,
	} {
		r := e.do("GET", "/api/import_templates?"+q, nil)
		expectStatus(t, r, http.StatusOK)
		if got := int(num(r.json(t)["meta"].(map[string]any)["total"])); got != want {
			t.Errorf("%s: total %d, want %d", q, got, want)
		}
	}
	expectStatus(t, e.do("GET", "/api/import_templates?q=a.&regex=true", nil), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("GET", "/api/import_templates?q=abc(&regex=true", nil), http.StatusUnprocessableEntity)

	vid := strconv.FormatInt(num(tpl["latest_version_id"]), 10)
	r = e.do("POST", templatePath(tpl, "versions/"+vid+"/upgrades"), nil)
	expectStatus(t, r, http.StatusAccepted)
	if _, body := e.pollUntil(r.json(t)["status_url"].(string), 100*time.Millisecond); body["status"] != "success" {
		t.Fatalf("upgrade %v", body)
	}
	expectStatus(t, e.do("POST", templatePath(tpl, "source"), nil), http.StatusUnprocessableEntity)
	r = e.do("PUT", templatePath(tpl, "source"), map[string]any{"source": map[string]any{"source_prop_id": 7, "source_path": "compose.yml"}})
	if expectStatus(t, r, http.StatusOK); r.json(t)["source"].(map[string]any)["path"] != "compose.yml" {
		t.Fatalf("source %s", r.body)
	}
	r = e.do("POST", templatePath(tpl, "source"), nil)
	expectStatus(t, r, http.StatusAccepted)
	if _, body := e.pollUntil(r.json(t)["status_url"].(string), 100*time.Millisecond); body["status"] != "success" {
		t.Fatalf("refresh %v", body)
	}
	if r := e.do("DELETE", templatePath(tpl, "source"), nil); r.json(t)["source"] != nil {
		t.Fatalf("cleared source %s", r.body)
	}

	r = e.do("POST", templatePath(tpl, "patch_previews"), map[string]any{"base_version_id": num(tpl["latest_version_id"]),
		"edits": []any{map[string]any{"search": "nginx", "replace": "caddy"}}})
	if expectStatus(t, r, http.StatusOK); !strings.Contains(r.json(t)["template_body"].(string), "caddy") {
		t.Fatalf("preview %s", r.body)
	}
	r = e.do("POST", templatePath(tpl, "patches"), map[string]any{"base_version_id": num(tpl["latest_version_id"]),
		"edits": []any{map[string]any{"search": "nginx", "replace": "caddy"}}})
	if expectStatus(t, r, http.StatusCreated); num(r.json(t)["version"].(map[string]any)["version"]) != 2 {
		t.Fatalf("patch %s", r.body)
	}
}

func TestTemplateScopes(t *testing.T) {
	e := newEnv(t, Config{})
	ro := e.as(e.mint(1, "marquees:read"))
	for _, p := range []string{"/api/import_templates", "/api/template_categories"} {
		if r := ro.do("GET", p, nil); r.status != http.StatusForbidden {
			t.Errorf("%s with marquees:read: %d", p, r.status)
		}
	}
}
