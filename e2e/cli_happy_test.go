package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

type pgDoc struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Status      string `json:"status"`
	MarqueeName string `json:"marquee_name"`
}

func TestPlaygroundLifecycle(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})

	r := w.ok("pg", "create", "--name", "preview-42", "--playspec", "web", "--marquee", "prod-eu", "--env", "A=1")
	mustContain(t, "create stdout", r.stdout, "preview-42", "prod-eu", "web")
	mustContain(t, "create stderr", r.stderr, "fibe pg rollout preview-42")

	r = w.ok("pg", "rollout", "preview-42")
	mustContain(t, "rollout stdout", r.stdout, "Status:", "running", "Builds:")

	r = w.ok("playgrounds", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[1], "preview-42") {
		t.Fatalf("list table:\n%s", r.stdout)
	}
	// Columns line up: NAME starts at the same offset in header and row.
	if strings.Index(lines[0], "NAME") != strings.Index(lines[1], "preview-42") {
		t.Errorf("columns not aligned:\n%s", r.stdout)
	}

	mustContain(t, "get", w.ok("pg", "get", "preview-42").stdout, "Name:", "preview-42", "URLs:")
	mustContain(t, "status", w.ok("pg", "status", "preview-42").stdout, "running")
	mustContain(t, "status --refresh", w.ok("pg", "status", "preview-42", "--refresh").stdout, "running")
	mustContain(t, "restart", w.ok("pg", "restart", "preview-42").stdout, "running")
	mustContain(t, "stop", w.ok("pg", "stop", "preview-42").stdout, "stopped")
	mustContain(t, "start", w.ok("pg", "start", "preview-42").stdout, "running")
	mustContain(t, "wait", w.ok("pg", "wait", "preview-42", "--for", "running").stdout, "running")

	r = w.ok("pg", "logs", "preview-42", "--service", "web", "--tail", "5")
	if n := len(strings.Split(strings.TrimSpace(r.stdout), "\n")); n == 0 || n > 5 {
		t.Errorf("logs --tail 5 printed %d lines:\n%s", n, r.stdout)
	}

	mustContain(t, "update", w.ok("pg", "update", "preview-42", "--name", "preview-43").stdout, "preview-43")
	mustContain(t, "extend", w.ok("pg", "extend", "preview-43", "--hours", "2").stdout, "Expires:")
	mustContain(t, "delete", w.ok("pg", "delete", "preview-43", "--yes").stdout, "Deleted playground preview-43")
	if r := w.run("pg", "get", "preview-43"); r.code != 3 {
		t.Fatalf("get after delete: %s", r)
	}
}

func TestMarqueeCommands(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	mustContain(t, "mq list", w.ok("mq", "list").stdout, "prod-eu", "unpaid", "HOST")
	mustContain(t, "mq get", w.ok("marquees", "get", "prod-eu").stdout, "Host:", "prod-eu")

	keyFile := filepath.Join(t.TempDir(), "id_test")
	secret := "-----BEGIN OPENSSH PRIVATE KEY-----\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n-----END OPENSSH PRIVATE KEY-----\n"
	if err := os.WriteFile(keyFile, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	// Even the --debug trace of the request body hides the key (and the API key).
	r := w.ok("mq", "create", "--name", "staging", "--host", "203.0.113.7", "--user", "deploy", "--ssh-key-file", keyFile, "--debug")
	mustContain(t, "mq create", r.stdout, "staging", "203.0.113.7")
	mustContain(t, "debug trace", r.stderr, "POST", "/api/marquees", "ssh_private_key", "[REDACTED]")
	if strings.Contains(r.stdout+r.stderr, "c2VjcmV0") || strings.Contains(r.stderr, w.key) {
		t.Fatalf("a secret was printed:\n%s", r)
	}
	mustContain(t, "mq update", w.ok("mq", "update", "staging", "--port", "2222").stdout, "2222")
	mustContain(t, "mq test-connection", w.ok("mq", "test-connection", "staging").stdout, "Connected to staging")
	mustContain(t, "mq ssh-key", w.ok("mq", "ssh-key", "staging").stdout, "ssh-")
	mustContain(t, "mq delete", w.ok("mq", "delete", "staging", "--yes").stdout, "Deleted marquee staging")
}

func TestNoWaitThenOps(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 20})
	w.ok("pg", "create", "--name", "ops-demo", "--playspec", "web")

	var handle struct {
		RequestID string `json:"request_id"`
		Status    string `json:"status"`
		StatusURL string `json:"status_url"`
	}
	w.jsonOf(&handle, "pg", "rollout", "ops-demo", "--no-wait")
	if !strings.HasPrefix(handle.RequestID, "req_") || handle.Status == "" {
		t.Fatalf("handle: %+v", handle)
	}

	var look struct {
		RequestID string `json:"request_id"`
		Status    string `json:"status"`
	}
	w.jsonOf(&look, "ops", "get", handle.RequestID)
	if look.RequestID != handle.RequestID || look.Status == "" {
		t.Fatalf("ops get: %+v", look)
	}

	var result pgDoc
	w.jsonOf(&result, "ops", "wait", handle.RequestID)
	if result.Name != "ops-demo" || result.Status != "running" {
		t.Fatalf("ops wait result: %+v", result)
	}
	r := w.ok("ops", "get", handle.RequestID)
	mustContain(t, "ops get (human)", r.stdout, "Request:", handle.RequestID, "success")
}

func TestReplayNotice(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "rp", "--playspec", "web")
	first := w.ok("pg", "restart", "rp", "--idempotency-key", "ci-123-restart", "--json")
	second := w.ok("pg", "restart", "rp", "--idempotency-key", "ci-123-restart", "--json")
	if first.stdout != second.stdout {
		t.Errorf("a replay changed stdout:\n%s\nvs\n%s", first.stdout, second.stdout)
	}
	if strings.Contains(first.stderr, "Replayed") {
		t.Errorf("first run claims a replay: %s", first.stderr)
	}
	mustContain(t, "replay stderr", second.stderr, "Replayed", "ci-123-restart")
	if got := w.server.Stats().Replays; got < 1 {
		t.Errorf("server counted %d replays", got)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	mustContain(t, "version", w.ok("version").stdout, "fibe 9.9.9-test", "abc1234")
	var v struct{ Version, Commit string }
	w.jsonOf(&v, "version")
	if v.Version != "9.9.9-test" || v.Commit != "abc1234" {
		t.Errorf("version json: %+v", v)
	}
}

func TestHelpAndGroups(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	mustContain(t, "help", w.ok("--help").stdout, "playgrounds", "marquees", "ops", "breaker", "auth", "config", "completion", "version", "local")
	mustContain(t, "pg alias", w.ok("pg").stdout, "rollout", "restart")
	if r := w.run("pg", "bogus"); r.code != 2 {
		t.Errorf("unknown subcommand: %s", r)
	}
}

// A resource described once and nothing else (playspecs) has its commands:
// table, card and JSON from its description.
func TestPlayspecCommandsFromTheDescription(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	r := w.ok("playspecs", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "DESCRIPTION") || !strings.Contains(r.stdout, "web") {
		t.Fatalf("playspecs list:\n%s", r.stdout)
	}
	mustContain(t, "ps get", w.ok("ps", "get", "web").stdout, "Name:", "web", "Description:")
	var doc struct {
		Name     string `json:"name"`
		Services []any  `json:"services"`
	}
	w.jsonOf(&doc, "ps", "get", "1", "--json")
	if doc.Name != "web" || len(doc.Services) == 0 {
		t.Errorf("ps get --json: %+v", doc)
	}
	if r := w.run("ps", "get", "nope"); r.code != 3 {
		t.Errorf("ps get nope: exit %d, want 3 (%s)", r.code, r.stderr)
	}
}

// pg create waits until the playground runs, as every door's create does;
// --no-wait answers with what the API answered.
func TestCreateWaitsUntilRunning(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	var p pgDoc
	w.jsonOf(&p, "pg", "create", "--name", "waits", "--playspec", "web", "--json")
	if p.Status != "running" {
		t.Errorf("create: status %q, want running", p.Status)
	}
	w.jsonOf(&p, "pg", "create", "--name", "answers", "--playspec", "web", "--no-wait", "--json")
	if p.Name != "answers" || p.Status == "running" {
		t.Errorf("create --no-wait: %+v, want the playground as created", p)
	}
}
