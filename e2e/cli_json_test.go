package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// TestEveryCommandJSON runs each command with --json and insists that
// stdout is exactly one JSON document.
func TestEveryCommandJSON(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "j1", "--playspec", "web")
	var handle struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&handle, "pg", "rollout", "j1", "--no-wait")
	w.ok("ops", "wait", handle.RequestID)

	commands := [][]string{
		{"pg", "list"},
		{"pg", "list", "--all"},
		{"pg", "get", "j1"},
		{"pg", "create", "--name", "j2", "--playspec", "web"},
		{"pg", "update", "j2", "--env", "X=1"},
		{"pg", "rollout", "j2"},
		{"pg", "restart", "j2"},
		{"pg", "stop", "j2"},
		{"pg", "start", "j2"},
		{"pg", "status", "j2"},
		{"pg", "status", "j2", "--refresh"},
		{"pg", "wait", "j2", "--for", "running"},
		{"pg", "logs", "j2", "--tail", "3"},
		{"pg", "extend", "j2", "--hours", "1"},
		{"pg", "rollout", "j2", "--no-wait"},
		{"pg", "delete", "j1", "--yes"},
		{"mq", "list"},
		{"mq", "list", "--all"},
		{"mq", "get", "local"},
		{"mq", "create", "--name", "m2", "--host", "198.51.100.2"},
		{"mq", "update", "m2", "--user", "ops"},
		{"mq", "test-connection", "m2"},
		{"mq", "ssh-key", "m2"},
		{"mq", "delete", "m2", "--yes"},
		{"ops", "get", handle.RequestID},
		{"ops", "wait", handle.RequestID},
		{"breaker", "status"},
		{"breaker", "reset"},
		{"config", "list"},
		{"config", "get", "timeout"},
		{"config", "set", "timeout", "45s"},
		{"auth", "status"},
		{"version"},
	}
	for _, args := range commands {
		var doc any
		r := w.jsonOf(&doc, args...)
		if strings.Contains(r.stdout, "\x1b") {
			t.Errorf("fibe %s --json: escape codes on stdout", strings.Join(args, " "))
		}
	}

	// Lists are arrays, even when empty.
	var none []any
	w.jsonOf(&none, "pg", "list", "--status", "destroyed")
	if none == nil {
		t.Error("an empty list must print [] not null")
	}
}

func TestJQ(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "alpha", "--playspec", "web")
	w.ok("pg", "create", "--name", "beta", "--playspec", "web")

	r := w.ok("pg", "list", "--jq", ".[].name")
	if got := strings.Fields(r.stdout); strings.Join(got, ",") != "beta,alpha" { // newest first
		t.Errorf("--jq .[].name printed %q", r.stdout)
	}
	r = w.ok("pg", "list", "--jq", "map(select(.name==\"beta\")) | length")
	if strings.TrimSpace(r.stdout) != "1" {
		t.Errorf("--jq length printed %q", r.stdout)
	}
	r = w.ok("pg", "get", "alpha", "--jq", "{id, name}")
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &obj); err != nil || obj["name"] != "alpha" {
		t.Errorf("--jq object printed %q (%v)", r.stdout, err)
	}
	// A bad expression is a usage error, found before any request.
	before := w.server.Stats()
	r = w.run("pg", "create", "--name", "gamma", "--playspec", "web", "--jq", ".[")
	if r.code != 2 || r.stdout != "" {
		t.Errorf("bad --jq: %s", r)
	}
	if after := w.server.Stats(); after.Mutations != before.Mutations {
		t.Error("a bad --jq still sent the mutation")
	}
}

func TestFollowLogsNDJSON(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "logs", "--playspec", "web")
	w.ok("pg", "rollout", "logs")
	p := w.start("pg", "logs", "logs", "--follow", "--json", "--tail", "2")
	p.waitFor(t, 10e9, "three log lines", func(stdout, _ string) bool { return strings.Count(stdout, "\n") >= 3 })
	_ = p.cmd.Process.Signal(interrupt)
	r := p.wait(t, 10e9)
	if r.code != 130 {
		t.Errorf("follow interrupted: exit %d\n%s", r.code, r)
	}
	// Ctrl-C is how a followed stream ends, not a failure: no error document.
	if strings.TrimSpace(r.stderr) != "" {
		t.Errorf("stderr after Ctrl-C on a followed stream: %q", r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	for _, l := range lines {
		var line struct {
			Seq  int64  `json:"seq"`
			Line string `json:"line"`
		}
		if err := json.Unmarshal([]byte(l), &line); err != nil || line.Line == "" {
			t.Fatalf("not an NDJSON log line: %q (%v)", l, err)
		}
	}
}
