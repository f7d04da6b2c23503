package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// The autoconnect token is a secret: printed once, alone, on stdout, and
// nowhere else, not on stderr with --debug (the trace masks it), not in
// any file of the user's home (the outcome journal holds only the key and
// the signature of the request).
func TestCLIAutoconnectTokenShownOnce(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	r := w.ok("mq", "autoconnect-token", "--email", "ops@example.com", "--domain", "app.example.com", "--debug")
	token := strings.TrimSpace(r.stdout)
	if !regexp.MustCompile(`^[0-9a-f]{32,}$`).MatchString(token) || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("stdout is not one token line: %s", r)
	}
	if strings.Contains(r.stderr, token) {
		t.Errorf("the token is on stderr:\n%s", r.stderr)
	}
	mustContain(t, "the notice", r.stderr, "shown once")
	err := filepath.WalkDir(w.home, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), token) {
			t.Errorf("the token is in %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var again struct{ Token string }
	w.jsonOf(&again, "mq", "autoconnect-token", "--email", "ops@example.com")
	if again.Token == "" || again.Token == token {
		t.Errorf("a second call gave %q, want a new token", again.Token)
	}
	// Bad input: exit 2, nothing sent.
	before := w.server.Stats().Requests["POST /api/autoconnect_tokens"]
	for _, args := range [][]string{
		{"--email", "not-an-email"},
		{"--ip", "300.1.1.1"},
		{"--ssl-mode", "sometimes"},
		{"--dns-credentials-file", "/nonexistent"},
	} {
		expectExit(t, w, 2, "", append([]string{"mq", "autoconnect-token"}, args...)...)
	}
	if after := w.server.Stats().Requests["POST /api/autoconnect_tokens"]; len(after) != len(before) || after["201"] != before["201"] {
		t.Errorf("bad input was sent: %v then %v", before, after)
	}
	// Credentials come from a file; a malformed line is named, never shown.
	creds := filepath.Join(t.TempDir(), "dns.env")
	if err := os.WriteFile(creds, []byte("AWS_ACCESS_KEY_ID=AKIA1\nsecret-without-equals\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = expectExit(t, w, 2, "", "mq", "autoconnect-token", "--dns-provider", "route53", "--dns-credentials-file", creds)
	mustContain(t, "the line", r.stderr, "line 2")
	if strings.Contains(r.stderr, "secret-without-equals") {
		t.Errorf("the malformed line is shown:\n%s", r.stderr)
	}
}

// pg env, compose and debug from the real binary.
func TestCLIPlaygroundExtras(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "extra", "--playspec", "web", "--env", "APP_MODE=demo")
	w.ok("pg", "wait", "extra")
	r := w.ok("pg", "env", "extra")
	mustContain(t, "pg env", r.stdout, "APP_MODE", "demo", "override", "FIBE_PLAYGROUND", "system")
	r = w.ok("pg", "compose", "extra")
	mustContain(t, "pg compose", r.stdout, "services:", "web:", "worker:", "db:")
	r = w.ok("pg", "debug", "extra", "--refresh", "--logs-tail", "3")
	mustContain(t, "pg debug", r.stdout, "extra", "Startup", "running", "Last log lines:")
	// A refresh not waited on is resumed by ops wait, which prints it as
	// pg debug does.
	var h struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&h, "pg", "debug", "extra", "--refresh", "--no-wait")
	r = w.ok("ops", "wait", h.RequestID)
	mustContain(t, "ops wait of a debug refresh", r.stdout, "Playground", "extra", "Startup", "Last log lines:")
	expectExit(t, w, 2, "", "pg", "debug", "extra", "--mode", "verbose")
	expectExit(t, w, 3, "RESOURCE_NOT_FOUND", "pg", "compose", "nowhere")
}
