package localapi

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// withKey sends the request with another bearer token.
func withKey(token string) reqOpt { return withHeader("Authorization", "Bearer "+token) }

// mintTestKey gives player a key with scopes, straight into the state.
func (e *env) mintTestKey(player int64, scopes ...string) string {
	e.t.Helper()
	var token string
	if err := e.srv.store.update(e.clock.Now(), func(st *state) change {
		_, token = st.mintKey(player, "test", scopes, nil, false, e.clock.Now())
		return changedDurable
	}); err != nil {
		e.t.Fatal(err)
	}
	return token
}

// stateOf runs fn on the emulator's state, read only.
func (e *env) stateOf(fn func(st *state)) {
	e.t.Helper()
	if err := e.srv.store.update(e.clock.Now(), func(st *state) change { fn(st); return unchanged }); err != nil {
		e.t.Fatal(err)
	}
}

func newProp(e *env, obj map[string]any, opts ...reqOpt) *resp {
	e.t.Helper()
	return e.do("POST", "/api/props", map[string]any{"prop": obj}, opts...)
}

func TestPropsCRUD(t *testing.T) {
	e := newEnv(t, Config{})

	// The seeded prop is there.
	r := e.do("GET", "/api/props", nil)
	expectStatus(t, r, 200)
	if got := names(t, r); !slices.Equal(got, []string{"demo-app"}) {
		t.Fatalf("seeded props: %v", got)
	}

	r = newProp(e, map[string]any{"repository_url": "https://github.com/local-dev/shop.git"})
	expectStatus(t, r, http.StatusCreated)
	p := r.json(t)
	if p["name"] != "shop" || p["provider"] != "github" || p["default_branch"] != "main" || p["status"] != "active" {
		t.Fatalf("created: %s", r.body)
	}
	if br, ok := p["branches"].([]any); !ok || len(br) != 1 || br[0] != "main" {
		t.Fatalf("detail branches: %v", p["branches"])
	}
	if _, ok := p["has_credentials"]; !ok {
		t.Fatalf("detail fields missing: %s", r.body)
	}
	id := itoa(int(num(p["id"])))

	for _, ref := range []string{"shop", id} {
		r = e.do("GET", "/api/props/"+ref, nil)
		expectStatus(t, r, 200)
		if r.json(t)["name"] != "shop" {
			t.Fatalf("get %s: %s", ref, r.body)
		}
	}

	e.clock.Advance(time.Minute)
	r = newProp(e, map[string]any{"repository_url": "https://gitea.fibe.test/local-dev/api", "name": "backend",
		"private": true, "credentials": map[string]any{"token": "s3cr3t-value"}})
	expectStatus(t, r, http.StatusCreated)
	if p := r.json(t); p["provider"] != "gitea" || p["private"] != true || p["has_credentials"] != true {
		t.Fatalf("created: %s", r.body)
	}
	if strings.Contains(string(r.body), "s3cr3t-value") {
		t.Fatal("credentials came back")
	}

	list := func(query string) []string {
		t.Helper()
		r := e.do("GET", "/api/props?"+query, nil)
		expectStatus(t, r, 200)
		return names(t, r)
	}
	for query, want := range map[string][]string{
		"":                                   {"backend", "shop", "demo-app"}, // created_at_desc
		"sort=created_at_asc":                {"demo-app", "shop", "backend"},
		"sort=name_asc":                      {"backend", "demo-app", "shop"},
		"sort=name_desc":                     {"shop", "demo-app", "backend"},
		"name=HO":                            {"shop"},
		"q=gitea":                            {"backend"},
		"provider=github":                    {"shop", "demo-app"},
		"private=true":                       {"backend"},
		"private=false":                      {"shop", "demo-app"},
		"status=syncing":                     {},
		"created_after=2030-01-02T03:05:05Z": {"backend"},
		"per_page=1&page=2":                  {"shop"},
	} {
		if got := list(query); !slices.Equal(got, want) {
			t.Errorf("list ?%s = %v, want %v", query, got, want)
		}
	}
	for query, code := range map[string]string{
		"sort=bogus_asc": codeInvalidSort, "provider=svn": codeValidation, "private=maybe": codeValidation,
		"status=gone": codeValidation, "created_after=yesterday": codeValidation,
	} {
		r := e.do("GET", "/api/props?"+query, nil)
		if r.status < 400 || r.errCode(t) != code {
			t.Errorf("list ?%s: %d %s, want %s", query, r.status, r.body, code)
		}
	}

	r = e.do("PATCH", "/api/props/shop", map[string]any{"prop": map[string]any{"name": "shop-2", "private": false, "default_branch": "release/1"}})
	expectStatus(t, r, 200)
	if p := r.json(t); p["name"] != "shop-2" || p["default_branch"] != "release/1" {
		t.Fatalf("update: %s", r.body)
	}
	// Renaming to its own name, or keeping its URL, is no conflict.
	r = e.do("PATCH", "/api/props/shop-2", map[string]any{"prop": map[string]any{"name": "shop-2", "repository_url": "https://github.com/local-dev/shop.git"}})
	expectStatus(t, r, 200)
	r = e.do("PATCH", "/api/props/shop-2", map[string]any{"prop": map[string]any{"name": "backend"}})
	expectStatus(t, r, 422)

	expectStatus(t, e.do("DELETE", "/api/props/"+id, nil), http.StatusNoContent)
	r = e.do("GET", "/api/props/"+id, nil)
	expectStatus(t, r, 404)
	if r.errCode(t) != codeNotFound {
		t.Fatalf("after delete: %s", r.body)
	}
	expectStatus(t, e.do("DELETE", "/api/props/999999", nil), 404)

	// Every mutation was recorded.
	var actions []string
	e.stateOf(func(st *state) {
		for _, a := range st.AuditLogs {
			if a.ResourceType == "Prop" {
				actions = append(actions, a.Action)
			}
		}
	})
	want := []string{"prop.created", "prop.created", "prop.updated", "prop.updated", "prop.destroyed"}
	if !slices.Equal(actions, want) {
		t.Fatalf("audit: %v, want %v", actions, want)
	}
}

func TestPropCreateRefusals(t *testing.T) {
	e := newEnv(t, Config{})
	for _, c := range []struct {
		name  string
		obj   map[string]any
		field string
		words []string
	}{
		{"blank url", map[string]any{"repository_url": " "}, "repository_url", []string{"blank"}},
		{"not a url", map[string]any{"repository_url": "not-a-url"}, "repository_url", nil},
		{"foreign owner", map[string]any{"repository_url": "https://github.com/nginx/nginx"}, "repository_url", []string{"push", "writable", "fork"}},
		{"other host", map[string]any{"repository_url": "https://gitlab.com/local-dev/x"}, "repository_url", nil},
		{"already linked", map[string]any{"repository_url": "https://github.com/local-dev/demo-app"}, "repository_url", []string{"demo-app"}},
		{"provider mismatch", map[string]any{"repository_url": "https://github.com/local-dev/x", "provider": "gitea"}, "provider", nil},
		{"unknown provider", map[string]any{"repository_url": "https://github.com/local-dev/x", "provider": "svn"}, "provider", nil},
		{"bad name", map[string]any{"repository_url": "https://github.com/local-dev/x", "name": "Not OK"}, "name", nil},
		{"taken name", map[string]any{"repository_url": "https://github.com/local-dev/x", "name": "demo-app"}, "name", nil},
		{"private not bool", map[string]any{"repository_url": "https://github.com/local-dev/x", "private": "yes"}, "private", nil},
		{"bad branch", map[string]any{"repository_url": "https://github.com/local-dev/x", "default_branch": "a..b"}, "default_branch", nil},
		{"credentials not object", map[string]any{"repository_url": "https://github.com/local-dev/x", "credentials": "tok"}, "credentials", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newProp(e, c.obj)
			expectStatus(t, r, 422)
			if r.errCode(t) != codeValidation || r.errDetails(t)[c.field] == nil {
				t.Fatalf("want a 422 naming %s: %s", c.field, r.body)
			}
			msg := strings.ToLower(string(r.body))
			for _, w := range c.words {
				if !strings.Contains(msg, w) {
					t.Fatalf("message lacks %q: %s", w, r.body)
				}
			}
		})
	}
	// Nothing was created by the refusals; a missing wrapper is a 400.
	expectStatus(t, e.do("POST", "/api/props", map[string]any{"repository_url": "https://github.com/local-dev/x"}), 400)
	if got := names(t, e.do("GET", "/api/props", nil)); len(got) != 1 {
		t.Fatalf("props after refusals: %v", got)
	}
}

func TestPropAttachAndMirror(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("POST", "/api/github_repositories", map[string]any{"name": "Widget.js", "private": true, "auto_init": true, "description": "w"})
	expectStatus(t, r, http.StatusCreated)
	repo := r.json(t)
	if repo["full_name"] != "local-dev/Widget.js" || repo["html_url"] != "https://github.com/local-dev/Widget.js" ||
		repo["ssh_url"] != "git@github.com:local-dev/Widget.js.git" || repo["private"] != true {
		t.Fatalf("github repo: %s", r.body)
	}
	expectStatus(t, e.do("POST", "/api/github_repositories", map[string]any{"name": "Widget.js"}), 422)
	expectStatus(t, e.do("POST", "/api/github_repositories", map[string]any{"name": ""}), 422)
	expectStatus(t, e.do("POST", "/api/github_repositories", map[string]any{"name": "a/b"}), 422)

	r = e.do("POST", "/api/props/attachments", map[string]any{"repo_full_name": "local-dev/Widget.js"})
	expectStatus(t, r, http.StatusCreated)
	if p := r.json(t); p["name"] != "widget-js" || p["provider"] != "github" || p["private"] != true {
		t.Fatalf("attach: %s", r.body)
	}
	for body, status := range map[string]int{
		"local-dev/Widget.js": 422, // already linked
		"nobody/nothing":      404,
		"":                    422,
		"no-slash":            422,
	} {
		r := e.do("POST", "/api/props/attachments", map[string]any{"repo_full_name": body})
		if r.status != status {
			t.Errorf("attach %q: %d %s, want %d", body, r.status, r.body, status)
		}
	}

	for body, status := range map[string]int{"not-a-url": 422, "": 422, "git@github.com:a/b.git": 422} {
		r := e.do("POST", "/api/props/mirrors", map[string]any{"source_url": body})
		if r.status != status || r.errDetails(t)["source_url"] == nil {
			t.Errorf("mirror %q: %d %s, want %d naming source_url", body, r.status, r.body, status)
		}
	}
	r = e.do("POST", "/api/props/mirrors", map[string]any{"source_url": "https://github.com/nginx/nginx"})
	expectStatus(t, r, http.StatusCreated)
	p := r.json(t)
	if p["provider"] != "gitea" || p["repository_url"] != "https://gitea.fibe.test/local-dev/nginx" ||
		p["original_repository_url"] != "https://github.com/nginx/nginx" || p["name"] != "nginx" {
		t.Fatalf("mirror: %s", r.body)
	}
	// A mirror of a repository of the world copies its branches.
	r = e.do("POST", "/api/props/mirrors", map[string]any{"source_url": "https://github.com/local-dev/demo-app", "name": "demo-copy"})
	expectStatus(t, r, http.StatusCreated)
	if br := r.json(t)["branches"].([]any); len(br) != 2 {
		t.Fatalf("mirror branches: %s", r.body)
	}
	expectStatus(t, e.do("POST", "/api/props/mirrors", map[string]any{"source_url": "https://github.com/nginx/nginx"}), 422)
}

func TestPropSyncBranchesEnvDefaults(t *testing.T) {
	e := newEnv(t, Config{})
	e.clock.Advance(time.Hour)
	r := e.do("POST", "/api/props/demo-app/syncs", nil)
	expectStatus(t, r, 200)
	if r.json(t)["message"] == "" {
		t.Fatalf("sync: %s", r.body)
	}
	got := e.do("GET", "/api/props/demo-app", nil).json(t)["last_synced_at"]
	if got != e.clock.Now().Format(time.RFC3339) {
		t.Fatalf("last_synced_at %v after a sync at %v", got, e.clock.Now())
	}

	branches := func(query string) []any {
		t.Helper()
		r := e.do("GET", "/api/props/demo-app/branches"+query, nil)
		expectStatus(t, r, 200)
		return r.json(t)["branches"].([]any)
	}
	all := branches("")
	if len(all) != 2 || all[0].(map[string]any)["name"] != "main" || all[0].(map[string]any)["default"] != true ||
		all[1].(map[string]any)["default"] != false {
		t.Fatalf("branches: %v", all)
	}
	if b := branches("?query=DEV"); len(b) != 1 || b[0].(map[string]any)["name"] != "develop" {
		t.Fatalf("query: %v", b)
	}
	if b := branches("?limit=1"); len(b) != 1 {
		t.Fatalf("limit: %v", b)
	}
	expectStatus(t, e.do("GET", "/api/props/demo-app/branches?limit=0", nil), 422)

	r = e.do("GET", "/api/props/demo-app/env_defaults?branch=main", nil)
	expectStatus(t, r, 200)
	if d := r.json(t)["defaults"].(map[string]any); d["PORT"] != "3000" {
		t.Fatalf("env_defaults: %s", r.body)
	}
	r = e.do("GET", "/api/props/demo-app/env_defaults?branch=develop&env_file_path=config/.env.sample", nil)
	expectStatus(t, r, 200)
	if d := r.json(t)["defaults"].(map[string]any); len(d) != 0 {
		t.Fatalf("other file: %s", r.body)
	}
	for query, status := range map[string]int{"": 422, "?branch=": 422, "?branch=nope": 404, "?branch=main&env_file_path=../etc/passwd": 422} {
		if r := e.do("GET", "/api/props/demo-app/env_defaults"+query, nil); r.status != status {
			t.Errorf("env_defaults%s: %d %s, want %d", query, r.status, r.body, status)
		}
	}
	for _, c := range []struct{ method, path string }{
		{"POST", "/api/props/999999999/syncs"}, {"GET", "/api/props/999999999/branches"},
		{"GET", "/api/props/999999999/env_defaults?branch=main"}, {"PATCH", "/api/props/nope"},
	} {
		var body any
		if c.method == "PATCH" {
			body = map[string]any{"prop": map[string]any{"name": "x"}}
		}
		if r := e.do(c.method, c.path, body); r.status != 404 || r.errCode(t) != codeNotFound {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.body)
		}
	}
}

func TestGiteaRepositoryCreatesProp(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("POST", "/api/gitea_repositories", map[string]any{"name": "test-prop-17", "private": true, "auto_init": true})
	expectStatus(t, r, http.StatusCreated)
	g := r.json(t)
	prop, _ := g["prop"].(map[string]any)
	if g["full_name"] != "local-dev/test-prop-17" || prop == nil || num(g["prop_id"]) != num(prop["id"]) ||
		prop["provider"] != "gitea" || prop["private"] != true || prop["default_branch"] != "main" {
		t.Fatalf("gitea repo: %s", r.body)
	}
	if repo, _ := g["repo"].(map[string]any); repo["clone_url"] != "https://gitea.fibe.test/local-dev/test-prop-17.git" {
		t.Fatalf("repo summary: %v", g["repo"])
	}
	ref := itoa(int(num(g["prop_id"])))
	if b := e.do("GET", "/api/props/"+ref+"/branches", nil).json(t)["branches"].([]any); len(b) != 1 {
		t.Fatalf("auto_init branches: %v", b)
	}
	r = e.do("POST", "/api/gitea_repositories", map[string]any{"name": "empty"})
	expectStatus(t, r, http.StatusCreated)
	ref = itoa(int(num(r.json(t)["prop_id"])))
	r = e.do("GET", "/api/props/"+ref+"/branches", nil)
	expectStatus(t, r, 200)
	if b, ok := r.json(t)["branches"].([]any); !ok || len(b) != 0 {
		t.Fatalf("fresh repo branches must be an empty array: %s", r.body)
	}
	expectStatus(t, e.do("POST", "/api/gitea_repositories", map[string]any{"name": "empty"}), 422)

	// The prop's URL is its own repository: linking it again is refused,
	// deleting the prop and linking the URL works.
	url := "https://gitea.fibe.test/local-dev/empty"
	expectStatus(t, newProp(e, map[string]any{"repository_url": url}), 422)
	expectStatus(t, e.do("DELETE", "/api/props/"+ref, nil), 204)
	expectStatus(t, newProp(e, map[string]any{"repository_url": url, "provider": "gitea", "default_branch": "main"}), 201)
}

func TestRepoStatusChecks(t *testing.T) {
	e := newEnv(t, Config{})
	e.do("POST", "/api/github_repositories", map[string]any{"name": "nginx"})
	r := e.do("POST", "/api/repo_status_checks", map[string]any{"github_urls": []string{
		"https://github.com/local-dev/demo-app", "https://github.com/nginx/nginx", "https://github.com/acme/other",
		"not-a-url", "https://github.com/local-dev/missing",
	}})
	expectStatus(t, r, 200)
	repos := r.json(t)["repos"].([]any)
	status := func(i int) map[string]any { return repos[i].(map[string]any) }
	if len(repos) != 5 {
		t.Fatalf("repos: %s", r.body)
	}
	if s := status(0); s["status"] != "ready" || s["runtime_writable"] != true || s["prop_name"] != "demo-app" || s["url"] != "https://github.com/local-dev/demo-app" {
		t.Errorf("own repo: %v", s)
	}
	// A foreign repository the player has forked is ready through the fork.
	if s := status(1); s["status"] != "ready" || s["player_repo"] != "local-dev/nginx" {
		t.Errorf("forked repo: %v", s)
	}
	if s := status(2); s["status"] != "needs_fork" || s["requires_fork"] != true || s["runtime_writable"] != false || s["mirrorable"] != true {
		t.Errorf("foreign repo: %v", s)
	}
	if s := status(3); s["status"] != "invalid" || s["error"] == "" {
		t.Errorf("bad url: %v", s)
	}
	if s := status(4); s["status"] != "not_found" {
		t.Errorf("missing repo: %v", s)
	}
	r = e.do("POST", "/api/repo_status_checks", map[string]any{"github_urls": []string{}})
	expectStatus(t, r, 200)
	if repos := r.json(t)["repos"].([]any); len(repos) != 0 {
		t.Fatalf("empty: %s", r.body)
	}
	for _, body := range []any{map[string]any{}, map[string]any{"github_urls": "x"}, map[string]any{"github_urls": []any{1}}} {
		if r := e.do("POST", "/api/repo_status_checks", body); r.status != 422 || r.errDetails(t)["github_urls"] == nil {
			t.Errorf("%v: %d %s", body, r.status, r.body)
		}
	}
}

func TestPropScopes(t *testing.T) {
	e := newEnv(t, Config{})
	agents := e.mintTestKey(1, "agents:read")
	read := e.mintTestKey(1, "props:read")
	write := e.mintTestKey(1, "props:write")
	routes := []struct {
		method, path string
		body         any
		need         string // the least scope
	}{
		{"GET", "/api/props", nil, "props:read"},
		{"GET", "/api/props/demo-app", nil, "props:read"},
		{"GET", "/api/props/demo-app/branches", nil, "props:read"},
		{"GET", "/api/props/demo-app/env_defaults?branch=main", nil, "props:read"},
		{"POST", "/api/repo_status_checks", map[string]any{"github_urls": []string{}}, "props:read"},
		{"POST", "/api/props", map[string]any{"prop": map[string]any{"repository_url": "https://github.com/local-dev/s1"}}, "props:write"},
		{"PATCH", "/api/props/demo-app", map[string]any{"prop": map[string]any{"private": false}}, "props:write"},
		{"POST", "/api/props/demo-app/syncs", nil, "props:write"},
		{"POST", "/api/props/attachments", map[string]any{"repo_full_name": "nobody/x"}, "props:write"},
		{"POST", "/api/props/mirrors", map[string]any{"source_url": "https://github.com/a/s2"}, "props:write"},
		{"POST", "/api/gitea_repositories", map[string]any{"name": "s3"}, "props:write"},
		{"POST", "/api/github_repositories", map[string]any{"name": "s4"}, "props:write"},
		{"DELETE", "/api/props/999999", nil, "props:delete"},
	}
	for _, rt := range routes {
		// A key of another family is refused before anything is looked up
		// or validated.
		r := e.do(rt.method, rt.path, rt.body, withKey(agents), withIdem("k-"+rt.method+rt.path+"-a"))
		if r.status != 403 || r.errCode(t) != "FORBIDDEN" {
			t.Errorf("%s %s with agents:read: %d %s", rt.method, rt.path, r.status, r.body)
		}
		r = e.do(rt.method, rt.path, rt.body, withKey(read), withIdem("k-"+rt.method+rt.path+"-r"))
		if (rt.need == "props:read") != (r.status != 403) {
			t.Errorf("%s %s with props:read: %d %s", rt.method, rt.path, r.status, r.body)
		}
		r = e.do(rt.method, rt.path, rt.body, withKey(write), withIdem("k-"+rt.method+rt.path+"-w"))
		if (rt.need != "props:read") != (r.status != 403) {
			t.Errorf("%s %s with props:write: %d %s", rt.method, rt.path, r.status, r.body)
		}
	}
}

func TestPropsArePerPlayer(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	keys := e.srv.Keys()
	b := keys[1].Key
	r := e.do("POST", "/api/github_repositories", map[string]any{"name": "private-one", "private": true})
	expectStatus(t, r, 201)
	e.do("POST", "/api/github_repositories", map[string]any{"name": "public-one"})
	var aID string
	r = e.do("GET", "/api/props/demo-app", nil)
	aID = itoa(int(num(r.json(t)["id"])))

	// B has its own demo-app; A's answers 404 by id everywhere.
	r = e.do("GET", "/api/props/demo-app", nil, withKey(b))
	expectStatus(t, r, 200)
	if itoa(int(num(r.json(t)["id"]))) == aID || !strings.Contains(r.json(t)["repository_url"].(string), "/local-dev2/") {
		t.Fatalf("player B's demo-app: %s", r.body)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/props/" + aID, nil},
		{"GET", "/api/props/" + aID + "/env_defaults?branch=main", nil},
		{"GET", "/api/props/" + aID + "/branches", nil},
		{"POST", "/api/props/" + aID + "/syncs", nil},
		{"PATCH", "/api/props/" + aID, map[string]any{"prop": map[string]any{"name": "mine"}}},
		{"DELETE", "/api/props/" + aID, nil},
		{"POST", "/api/props/attachments", map[string]any{"repo_full_name": "local-dev/private-one"}},
	} {
		if r := e.do(c.method, c.path, c.body, withKey(b)); r.status != 404 {
			t.Errorf("B %s %s: %d %s", c.method, c.path, r.status, r.body)
		}
	}
	// A's public repository is visible to B but not B's to push to.
	r = e.do("POST", "/api/props/attachments", map[string]any{"repo_full_name": "local-dev/public-one"}, withKey(b))
	if r.status != 422 || !strings.Contains(string(r.body), "fork") {
		t.Fatalf("B attaching A's public repo: %d %s", r.status, r.body)
	}
	r = e.do("GET", "/api/props", nil, withKey(b))
	if got := names(t, r); len(got) != 1 {
		t.Fatalf("B's list: %v", got)
	}
	expectStatus(t, e.do("GET", "/api/props/"+aID, nil), 200)
}

func TestParseRepoURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/a/b":                        "github.com a/b",
		"https://GitHub.com/a/b.git":                    "github.com a/b",
		"http://gitea.fibe.test/a/b/":                   "gitea.fibe.test a/b",
		"git@github.com:a/b.git":                        "github.com a/b",
		"https://github.com/a":                          "",
		"https://github.com/a/b/c":                      "",
		"https://u:p@github.com/a/b":                    "",
		"ftp://github.com/a/b":                          "",
		"https://github.com/a/b?x=1":                    "",
		"https://github.com/-a/b":                       "",
		"https://github.com/a/" + url.PathEscape("b c"): "",
	} {
		rp, ok := parseRepoURL(in)
		got := ""
		if ok {
			got = rp.host + " " + rp.fullName()
		}
		if got != want {
			t.Errorf("parseRepoURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// A retried create is the first one's answer: one prop, one event.
func TestPropCreateReplays(t *testing.T) {
	e := newEnv(t, Config{})
	obj := map[string]any{"repository_url": "https://github.com/local-dev/once"}
	first := newProp(e, obj, withIdem("create-once"))
	expectStatus(t, first, http.StatusCreated)
	again := newProp(e, obj, withIdem("create-once"))
	expectStatus(t, again, http.StatusCreated)
	if again.header.Get("X-Idempotent-Replayed") != "true" || string(again.body) != string(first.body) {
		t.Fatalf("replay: %v %s", again.header, again.body)
	}
	created := 0
	e.stateOf(func(st *state) {
		for _, a := range st.AuditLogs {
			if a.Action == "prop.created" {
				created++
			}
		}
	})
	if n := len(names(t, e.do("GET", "/api/props?name=once", nil))); n != 1 || created != 1 {
		t.Fatalf("%d props and %d events after a replayed create", n, created)
	}
}

// The account status counts the player's props.
func TestStatusCountsProps(t *testing.T) {
	e := newEnv(t, Config{})
	expectStatus(t, newProp(e, map[string]any{"repository_url": "https://github.com/local-dev/counted"}), http.StatusCreated)
	r := e.do("GET", "/api/status", nil)
	expectStatus(t, r, http.StatusOK)
	if n := num(r.json(t)["props"]); n != 2 {
		t.Fatalf("status props = %v, want 2 (demo-app and counted): %s", n, r.body)
	}
}
