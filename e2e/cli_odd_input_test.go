package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// TestBlankArgumentsAreUsageErrors: an empty id or name is refused before
// anything is sent. Sent, it would address the collection (GET
// /api/playgrounds/ answers the list, printed as a playground with id 0),
// and an empty breaker resource would reset every breaker.
func TestBlankArgumentsAreUsageErrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	before := w.server.Stats()
	for _, args := range [][]string{
		{"pg", "get", ""},
		{"pg", "get", "  "},
		{"pg", "delete", "", "--yes"},
		{"pg", "rollout", "", "--no-wait"},
		{"pg", "logs", ""},
		{"mq", "get", ""},
		{"mq", "ssh-key", ""},
		{"ops", "get", ""},
		{"ops", "wait", ""},
		{"breaker", "reset", ""},
	} {
		r := expectExit(t, w, 2, "must not be empty", args...)
		if n := strings.Count(strings.TrimRight(r.stderr, "\n"), "\n"); n != 0 {
			t.Errorf("fibe %q: a usage error is one line, got:\n%s", args, r.stderr)
		}
	}
	if after := w.server.Stats(); total(after) != total(before) {
		t.Errorf("blank arguments reached the server: %v", after.Requests)
	}
	// An empty value still means "remove" for config set.
	w.ok("config", "set", "timeout", "45s")
	w.ok("config", "set", "timeout", "")
	var got struct{ Source string }
	w.jsonOf(&got, "config", "get", "timeout")
	if got.Source != "default" {
		t.Errorf("config set timeout \"\" should remove it; source is %q", got.Source)
	}
}

// TestOddPayloadFiles: a payload that is null, a directory or followed by
// more data is a usage error (exit 2), never a panic and never sent.
func TestOddPayloadFiles(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	null := write("null.json", "null\n")
	trailing := write("trailing.json", `{"name":"t1","playspec_id":1} {"name":"t2"}`)
	before := w.server.Stats()
	for _, args := range [][]string{
		{"pg", "create", "-f", null, "--name", "n1", "--playspec", "web", "--env", "A=B"},
		{"pg", "update", "n1", "-f", null, "--env", "A=B"},
		{"mq", "create", "-f", null, "--name", "m1", "--host", "h.example", "--user", "u"},
		{"mq", "update", "local", "-f", null, "--name", "m1"},
		{"pg", "create", "-f", trailing},
		{"pg", "create", "-f", dir, "--name", "d1", "--playspec", "web"},
	} {
		r := expectExit(t, w, 2, "payload", args...)
		if strings.Contains(r.stderr, "panic") {
			t.Errorf("fibe %q panicked:\n%s", args, r.stderr)
		}
	}
	if after := w.server.Stats(); after.Mutations != before.Mutations {
		t.Errorf("a bad payload was sent: %d mutations", after.Mutations-before.Mutations)
	}
	// Trailing white space is fine.
	ok := write("ok.json", "{\"name\":\"ok1\",\"playspec_id\":1}\n\n")
	w.ok("pg", "create", "-f", ok, "--no-wait")
}

// TestCompletionRefusesJSON: --json promises one JSON document on stdout;
// a shell script is not one.
func TestCompletionRefusesJSON(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	for _, flag := range []string{"--json", "--jq=."} {
		r := w.run("completion", "bash", flag)
		var doc errorDoc
		if r.code != 2 || r.stdout != "" || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "USAGE_ERROR" {
			t.Errorf("completion bash %s: %s", flag, r)
		}
	}
}
