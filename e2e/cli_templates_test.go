package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

type templateDoc struct {
	ID              int64  `json:"id"`
	Name            string `json:"name"`
	Category        string `json:"category"`
	LatestVersion   int64  `json:"latest_version"`
	LatestVersionID int64  `json:"latest_version_id"`
	Versions        []struct {
		ID      int64 `json:"id"`
		Version int64 `json:"version"`
		Public  bool  `json:"public"`
	} `json:"versions"`
}

func TestTemplatesLifecycle(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	body := filepath.Join(t.TempDir(), "compose.yml")
	if err := os.WriteFile(body, []byte("services:\n  web:\n    image: nginx:alpine\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	mustContain(t, "categories", w.ok("templates", "categories").stdout, "SLUG", "uncategorized")
	var tpl templateDoc
	w.jsonOf(&tpl, "templates", "create", "--name", "shop", "--body", body, "--description", "a shop")
	if tpl.ID == 0 || tpl.LatestVersion != 1 || len(tpl.Versions) != 1 || tpl.Category != "Uncategorized" {
		t.Fatalf("created %+v", tpl)
	}
	mustContain(t, "list", w.ok("tpl", "list").stdout, "shop", "v1")

	// A version from stdin, then the publication: read first, sent once.
	r := w.runIn("services:\n  api:\n    image: node:20\n", "templates", "versions", "create", "shop", "--body", "-", "--changelog", "api")
	if r.code != 0 || !strings.Contains(r.stdout, "v2") {
		t.Fatalf("versions create: %s", r)
	}
	mustContain(t, "versions list", w.ok("templates", "versions", "list", "shop").stdout, "v2", "api", "v1")
	mustContain(t, "unpublish (already private)", w.ok("templates", "unpublish", "shop").stderr, "already private", "nothing was sent")
	mustContain(t, "publish", w.ok("templates", "publish", "shop").stdout, "now public")
	mustContain(t, "publish again", w.ok("templates", "publish", "shop").stderr, "already public")
	w.jsonOf(&tpl, "templates", "get", "shop")
	if v := tpl.Versions[len(tpl.Versions)-1]; v.Version != 2 || !v.Public {
		t.Fatalf("after publish: %+v", tpl.Versions)
	}

	// One's own template cannot be forked.
	if r := w.run("templates", "fork", "shop"); r.code == 0 || !strings.Contains(r.stderr, "FORK_FAILED") {
		t.Fatalf("fork of one's own: %s", r)
	}

	// Bad input: nothing sent, exit 2.
	for _, args := range [][]string{
		{"templates", "create", "--name", "x"},
		{"templates", "create", "--name", "x", "--body", filepath.Join(t.TempDir(), "missing.yml")},
		{"templates", "publish", "shop", "v2"},
		{"templates", "versions", "create", "shop"},
		{"templates", "launch", "shop"},
	} {
		if r := w.run(args...); r.code != 2 {
			t.Errorf("%v: %s", args, r)
		}
	}

	mustContain(t, "launch", w.ok("templates", "launch", "shop", "--marquee", "local", "--name", "shop-pg").stdout, "running")
	mustContain(t, "delete", w.ok("templates", "delete", "shop", "--yes").stdout, "Deleted template shop")
	if r := w.run("templates", "get", "shop"); r.code != 3 {
		t.Fatalf("get after delete: %s", r)
	}
}

func TestLaunchWaitsForThePlayground(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	compose := "services:\n  web:\n    image: nginx:alpine\n"

	r := w.runIn(compose, "launch", "--compose", "-", "--name", "shop", "--marquee", "local", "--env", "A=1")
	if r.code != 0 {
		t.Fatalf("launch: %s", r)
	}
	mustContain(t, "launch", r.stdout, "Launched playspec", "is running")
	mustContain(t, "pg get", w.ok("pg", "get", "shop").stdout, "running")

	var res struct {
		PlayspecID   int64 `json:"playspec_id"`
		PlaygroundID int64 `json:"playground_id"`
	}
	w.jsonOf(&res, "launch", "--compose", writeTemp(t, compose), "--name", "spec-only")
	if res.PlayspecID == 0 || res.PlaygroundID != 0 {
		t.Fatalf("launch without a marquee: %+v", res)
	}

	for _, args := range [][]string{
		{"launch", "--name", "x"},
		{"launch", "--compose", writeTemp(t, compose)},
		{"launch", "--compose", writeTemp(t, compose), "--name", "x", "--env", "NOEQUALS"},
	} {
		if r := w.run(args...); r.code != 2 {
			t.Errorf("%v: %s", args, r)
		}
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "compose.yml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The publication route flips on every call. When its answer is lost
// after the flip, the command's retry carries the same idempotency key
// and is replayed: the version ends public, not flipped back.
func TestTemplatePublishSurvivesALostAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("templates", "create", "--name", "flip", "--body", writeTemp(t, "services:\n  web:\n    image: nginx\n"))
	if err := w.server.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	r := w.ok("templates", "publish", "flip")
	mustContain(t, "publish stdout", r.stdout, "now public")
	mustContain(t, "publish stderr", r.stderr, "Replayed")
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	var tpl templateDoc
	w.jsonOf(&tpl, "templates", "get", "flip")
	if len(tpl.Versions) != 1 || !tpl.Versions[0].Public {
		t.Fatalf("after a lost answer the version is %+v: the toggle was applied twice", tpl.Versions)
	}
	if st := w.server.Stats(); st.Faults["commit-then-502"] != 1 || st.Replays == 0 {
		t.Fatalf("faults %v, replays %d", st.Faults, st.Replays)
	}
}
