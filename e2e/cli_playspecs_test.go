package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// Playspec authoring from the command line: a compose from a file or from
// stdin, refused locally (exit 2, line and column, nothing sent) when it
// is not YAML; validate asks the server only after the local check.
func TestPlayspecCommands(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	dir := t.TempDir()
	good := filepath.Join(dir, "compose.yml")
	bad := filepath.Join(dir, "bad.yml")
	compose := "services:\n  web:\n    image: nginx:1.27\n    labels:\n      fibe.gg/port: \"80\"\n  db:\n    image: postgres:16\n"
	if err := os.WriteFile(good, []byte(compose), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("services:\n  web:\n    image: [nginx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before := w.server.Stats().Mutations

	for _, args := range [][]string{
		{"ps", "create", "--name", "shop", "--compose", bad},
		{"ps", "validate", "--compose", bad},
	} {
		r := w.run(args...)
		if r.code != 2 || !strings.Contains(r.stderr, "--compose is not valid YAML: line 4, column 1") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Fatalf("fibe %s: %s", strings.Join(args, " "), r)
		}
	}
	r := w.runIn("{}", "ps", "create", "--name", "shop", "--compose", "-", "-f", "-")
	if r.code != 2 || !strings.Contains(r.stderr, "both read stdin") {
		t.Fatalf("two readers of stdin: %s", r)
	}
	if w.server.Stats().Mutations != before {
		t.Fatal("a compose that is not YAML was sent")
	}

	var ps struct {
		ID       int64  `json:"id"`
		Name     string `json:"name"`
		Compose  string `json:"base_compose_yaml"`
		Services []struct {
			Name   string `json:"name"`
			Public bool   `json:"public"`
		} `json:"services"`
	}
	w.jsonOf(&ps, "ps", "create", "--name", "shop", "--compose", good, "--description", "A shop")
	if ps.Name != "shop" || ps.Compose != compose || len(ps.Services) != 2 || !ps.Services[0].Public {
		t.Fatalf("create: %+v", ps)
	}
	// The compose from stdin.
	changed := strings.Replace(compose, "postgres:16", "postgres:17", 1)
	r = w.runIn(changed, "ps", "update", "shop", "--compose", "-", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "postgres:17") {
		t.Fatalf("update from stdin: %s", r)
	}
	r = w.ok("ps", "services", "shop")
	mustContain(t, "services table", r.stdout, "NAME", "web", "nginx:1.27", "db", "postgres:17")
	r = w.ok("ps", "validate", "--compose", good)
	mustContain(t, "valid compose", r.stdout, "The compose is valid: 2 service(s) (web, db)")
	// Valid YAML the server refuses: its errors, exit 1.
	r = w.runIn("services:\n  web:\n    ports: [\"80\"]\n", "ps", "validate", "--compose", "-")
	if r.code != 1 || !strings.Contains(r.stderr, "services.web: needs an image or a build") {
		t.Fatalf("invalid compose: %s", r)
	}
	r = w.ok("ps", "list", "--name", "sho")
	mustContain(t, "list", r.stdout, "shop", "A shop")
	if strings.Contains(r.stdout, "broken") {
		t.Fatalf("name filter: %s", r)
	}
	w.ok("ps", "delete", "shop", "--yes")
	r = w.run("ps", "get", "shop")
	if r.code == 0 || !strings.Contains(r.stderr, "not found") {
		t.Fatalf("after delete: %s", r)
	}
}
