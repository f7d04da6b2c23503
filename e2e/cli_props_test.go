package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

func TestPropCommands(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})

	r := w.ok("props", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "demo-app") {
		t.Fatalf("list table:\n%s", r.stdout)
	}
	mustContain(t, "list header", lines[0], "NAME", "PROVIDER", "BRANCH", "REPOSITORY")
	mustContain(t, "get", w.ok("props", "get", "demo-app").stdout, "Repository:", "https://github.com/local-dev/demo-app", "Default branch:", "main")

	// A repository Fibe cannot push to is the server's refusal: exit 5, one
	// line saying why.
	r = w.run("props", "create", "--repository-url", "https://github.com/nginx/nginx")
	if r.code != 5 || !strings.Contains(r.stderr, "fork") {
		t.Fatalf("create of a foreign repository: %s", r)
	}
	r = w.ok("props", "create", "--repository-url", "https://github.com/local-dev/shop", "--private", "--default-branch", "main")
	mustContain(t, "create", r.stdout, "Name:", "shop", "Private:", "yes")
	mustContain(t, "update", w.ok("props", "update", "shop", "--name", "shop-2", "--private=false").stdout, "shop-2")

	var listed []struct {
		Name     string `json:"name"`
		Provider string `json:"provider"`
	}
	r = w.ok("props", "list", "--sort", "name_asc", "--provider", "github", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed) != 2 || listed[0].Name != "demo-app" {
		t.Fatalf("list --json: %v\n%s", err, r)
	}

	r = w.ok("props", "branches", "demo-app")
	mustContain(t, "branches", r.stdout, "NAME", "main", "develop", "yes")
	r = w.ok("props", "branches", "demo-app", "--query", "dev", "--json")
	var branches []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &branches); err != nil || len(branches) != 1 || branches[0]["name"] != "develop" {
		t.Fatalf("branches --query --json: %v\n%s", err, r)
	}
	// Without --branch: the prop's default branch.
	mustContain(t, "env-defaults", w.ok("props", "env-defaults", "demo-app").stdout, "PORT=3000\n", "RAILS_ENV=development\n")
	r = w.ok("props", "env-defaults", "demo-app", "--branch", "develop", "--jq", ".PORT")
	if strings.TrimSpace(r.stdout) != "3000" {
		t.Fatalf("env-defaults --jq: %s", r)
	}
	if r := w.run("props", "env-defaults", "demo-app", "--branch", "nope"); r.code != 3 {
		t.Fatalf("env-defaults of an unknown branch: %s", r)
	}
	mustContain(t, "sync", w.ok("props", "sync", "demo-app").stdout, "Sync scheduled", "demo-app")

	// Names complete, for the generic verbs and the props' own.
	for _, verb := range []string{"get", "delete", "branches", "env-defaults"} {
		mustContain(t, "complete "+verb, w.ok("__complete", "props", verb, "de").stdout, "demo-app")
	}
	mustContain(t, "complete --provider", w.ok("__complete", "props", "list", "--provider", "").stdout, "github", "gitea")

	w.ok("api", "-X", "POST", "/api/github_repositories", "-f", "name=widget")
	mustContain(t, "attach", w.ok("props", "attach", "local-dev/widget").stdout, "widget", "github")
	r = w.ok("props", "mirror", "https://github.com/nginx/nginx", "--name", "nginx-copy")
	mustContain(t, "mirror", r.stdout, "nginx-copy", "gitea", "Mirror of:", "https://github.com/nginx/nginx")

	mustContain(t, "delete", w.ok("props", "delete", "shop-2", "--yes").stdout, "shop-2")
	if r := w.run("props", "get", "shop-2"); r.code != 3 {
		t.Fatalf("get after delete: %s", r)
	}
}

func TestPropCommandsRefuseBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	for _, args := range [][]string{
		{"props", "attach", "no-slash"},
		{"props", "attach", "a/b/c"},
		{"props", "mirror", "not-a-url"},
		{"props", "mirror", "https://user:pw@github.com/a/b"},
		{"props", "mirror", "https://github.com/a/b", "--name", " "},
		{"props", "branches", "demo-app", "--limit", "0"},
		{"props", "env-defaults", "demo-app", "--env-file", "/etc/passwd"},
		{"props", "env-defaults", "demo-app", "--env-file", "../x"},
		{"props", "env-defaults", "demo-app", "--branch", ""},
		{"props", "create", "--repository-url", "https://github.com/local-dev/x", "--provider", "svn"},
		{"props", "create", "--name", "x"},
		{"props", "sync"},
		{"props", "list", "--private", "maybe"},
		{"props", "list", "--sort", "size_asc"},
	} {
		r := w.run(args...)
		if r.code != 2 || r.stdout != "" || strings.Count(strings.TrimSpace(r.stderr), "\n") > 1 {
			t.Errorf("fibe %s: want exit 2 and one line: %s", strings.Join(args, " "), r)
		}
	}
	if n := apiRequests(w); n != 0 {
		t.Fatalf("%d API requests were sent for bad input", n)
	}
}
