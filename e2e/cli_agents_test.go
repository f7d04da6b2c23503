package e2e

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// fibe agents against the emulator: the generic verbs, duplicate and
// runtime-status; bad input is exit 2 and sends nothing; another
// player's agent is not found (exit 3).
func TestCLIAgents(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Players: 2})
	var a map[string]any
	w.jsonOf(&a, "agents", "create", "--name", "reviewer", "--provider", "claude-code", "--description", "reads diffs")
	if a["provider_label"] == "" || a["description"] != "reads diffs" {
		t.Fatalf("created: %v", a)
	}
	var cp map[string]any
	w.jsonOf(&cp, "agents", "duplicate", "reviewer")
	if cp["name"] != "reviewer-copy" || cp["provider"] != "claude-code" || cp["id"] == a["id"] {
		t.Fatalf("copy: %v", cp)
	}
	w.ok("agents", "update", "reviewer", "--sync", "--model", "opus")
	r := w.ok("agents", "get", "reviewer")
	mustContain(t, "card", r.stdout, "Claude Code", "reads diffs", "opus")
	r = w.ok("agents", "runtime-status", "reviewer")
	mustContain(t, "runtime status", r.stdout, "stopped", "Reachable:")
	var list []map[string]any
	w.jsonOf(&list, "agents", "list", "--provider", "claude-code", "--sort", "name_desc")
	if len(list) != 2 || list[0]["name"] != "reviewer-copy" {
		t.Fatalf("list: %v", list)
	}

	before := apiRequests(w)
	for _, args := range [][]string{
		{"agents", "create", "--name", "x"},
		{"agents", "create", "--name", "x", "--provider", "nope"},
		{"agents", "create", "--name", strings.Repeat("a", 256), "--provider", "gemini"},
		{"agents", "list", "--provider", "nope"},
		{"agents", "duplicate"},
	} {
		expectExit(t, w, 2, "", args...)
	}
	if after := apiRequests(w); after != before {
		t.Fatalf("bad input sent %d requests", after-before)
	}

	other := *w
	other.env = map[string]string{}
	for k, v := range w.env {
		other.env[k] = v
	}
	other.env["FIBE_API_KEY"] = localapi.DefaultAPIKey + "_player2"
	expectExit(t, &other, 3, "RESOURCE_NOT_FOUND", "agents", "get", "reviewer")
	expectExit(t, &other, 3, "RESOURCE_NOT_FOUND", "agents", "duplicate", "reviewer")

	w.ok("agents", "delete", "reviewer-copy", "--yes")
	expectExit(t, w, 3, "RESOURCE_NOT_FOUND", "agents", "get", "reviewer-copy")
}
