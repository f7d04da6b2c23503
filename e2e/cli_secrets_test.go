package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fibegg/fibe/internal/localapi"
)

// secretRequests is how many requests reached the secrets routes.
func secretRequests(w *world) int {
	n := 0
	for route, byStatus := range w.server.Stats().Requests {
		if strings.Contains(route, "/api/secrets") {
			for _, c := range byStatus {
				n += c
			}
		}
	}
	return n
}

// filesHolding lists the files under dir whose content holds s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var found []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), s) {
			found = append(found, path)
		}
		return nil
	})
	return found
}

// A secret's value reaches stdout only when revealed, and never stderr,
// the --debug trace, the journal, a suggested command line or a file.
func TestCLISecretValueNeverShown(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	const value = "e2e-s3cret-value-71"
	checkHidden := func(what string, r result) {
		t.Helper()
		if strings.Contains(r.stdout+r.stderr, value) {
			t.Errorf("%s shows the value:\n%s", what, r)
		}
	}
	// Piped standard input (one final line break dropped), with the trace.
	r := w.runIn(value+"\n", "secrets", "set", "DB_URL", "--description", "the db", "--debug")
	if r.code != 0 || !strings.Contains(r.stdout, "Created secret DB_URL") || !strings.Contains(r.stderr, "[debug] --> POST") {
		t.Fatalf("set from stdin: %s", r)
	}
	checkHidden("set --debug", r)
	// A file, then an update: same key, a new value.
	file := filepath.Join(t.TempDir(), "value.txt") // outside HOME, which is searched below
	if err := os.WriteFile(file, []byte(value+"-2\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = w.ok("secrets", "set", "DB_URL", "--value-file", file, "--debug")
	if !strings.Contains(r.stdout, "Updated secret DB_URL") {
		t.Fatalf("set from a file: %s", r)
	}
	checkHidden("set --value-file", r)
	for _, args := range [][]string{
		{"secrets", "list", "--debug"}, {"secrets", "list", "--json"},
		{"secrets", "get", "DB_URL", "--debug"}, {"secrets", "get", "DB_URL", "--json"},
		{"api", "/api/secrets"},
	} {
		checkHidden(strings.Join(args, " "), w.ok(args...))
	}
	// --reveal prints it on stdout; the trace still masks it.
	r = w.ok("secrets", "get", "DB_URL", "--reveal", "--debug")
	if !strings.Contains(r.stdout, value+"-2") || strings.Contains(r.stdout, "\r") || strings.Contains(r.stderr, value) {
		t.Fatalf("get --reveal --debug: %s", r)
	}
	if r = w.ok("secrets", "get", "DB_URL", "--reveal", "--jq", ".value"); r.stdout != value+"-2\n" {
		t.Fatalf("get --reveal --jq .value: %q", r.stdout)
	}

	// A set whose answer is lost: the hint to run it again leaves the
	// --value out, the journal keeps no value, and nothing on disk does.
	if err := w.server.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	r = w.run("secrets", "set", "LOST", "--value", value, "--max-retries", "0")
	if r.code != 12 || !strings.Contains(r.stderr, "Retry it safely with: fibe secrets set LOST --max-retries 0 --idempotency-key ") ||
		!strings.Contains(r.stderr, "Give the same value again") {
		t.Fatalf("lost set: %s", r)
	}
	checkHidden("lost set", r)
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	checkHidden("ops pending", w.ok("ops", "pending", "--json"))
	if files := filesHolding(t, w.home, value); len(files) > 0 {
		t.Fatalf("files holding the value: %v", files)
	}
	// Run again the same way (stdin this time): the journal finishes it.
	r = w.runIn(value+"\n", "secrets", "set", "LOST")
	if r.code != 0 || !strings.Contains(r.stderr, "Reusing idempotency key") || !strings.Contains(r.stdout, "Created secret LOST") {
		t.Fatalf("finishing the lost set: %s", r)
	}
	if r = w.ok("ops", "pending", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("pending after the replay: %s", r)
	}
	if got := w.ok("secrets", "get", "LOST", "--reveal", "--jq", ".value").stdout; got != value+"\n" {
		t.Fatalf("value after the replay: %q", got)
	}
}

// Bad input is refused before anything is sent, in one line, exit 2.
func TestCLISecretsBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	big := filepath.Join(w.home, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 100_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	before := secretRequests(w)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"v", []string{"secrets", "set", "my.key"}, "invalid KEY: must be 1 to 255 letters, digits, _ or -"},
		{"v", []string{"secrets", "set", "MY KEY"}, "invalid KEY"},
		{"", []string{"secrets", "set", "EMPTY"}, "the value of EMPTY is empty"},
		{"\n", []string{"secrets", "set", "EMPTY"}, "is empty"},
		{"", []string{"secrets", "set", "BIG", "--value-file", big}, "too long"},
		{strings.Repeat("y", 65537), []string{"secrets", "set", "BIG"}, "the value is too long"},
		{"", []string{"secrets", "set", "NOFILE", "--value-file", filepath.Join(w.home, "missing")}, "--value-file: cannot read"},
		{"", []string{"secrets", "set", "BOTH", "--value", "a", "--value-file", big}, "none of the others can be"},
		{"", []string{"secrets", "delete", "X"}, "--yes is required"},
		{"", []string{"api-keys", "create", "--label", "x"}, "--scope is required"},
		{"", []string{"api-keys", "create", "--scope", "secrets:read"}, "--label is required"},
		{"", []string{"api-keys", "create", "--label", "x", "--scope", "secrets read"}, "--scope must each be"},
		{"", []string{"api-keys", "create", "--label", "x", "--scope", "secrets:read", "--expires-at", "tomorrow"}, "--expires-at must be an ISO 8601"},
		{"", []string{"api-keys", "delete", "7"}, "--yes is required"},
		{"", []string{"api-keys", "delete", "ci-key", "--yes"}, "invalid key id"},
	} {
		r := w.runIn(c.stdin, c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 1 {
			t.Errorf("fibe %s: want exit 2 and %q, got %s", strings.Join(c.args, " "), c.want, r)
		}
		if strings.Contains(r.stderr, strings.Repeat("x", 40)) || strings.Contains(r.stderr, strings.Repeat("y", 40)) {
			t.Errorf("fibe %s: the value is quoted: %s", strings.Join(c.args, " "), r)
		}
	}
	if n := secretRequests(w); n != before {
		t.Fatalf("%d requests reached the secrets routes", n-before)
	}
}

// An API key's token is printed once, on stdout; the list shows masked
// tokens; a deleted key is refused on its next use.
func TestCLIAPIKeys(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	r := w.ok("api-keys", "create", "--label", "ci reader", "--scope", "secrets:read", "--scope", "playgrounds:read", "--expires-at", "2031-01-31")
	token := strings.TrimSpace(r.stdout)
	if !strings.HasPrefix(token, "fibe_") || strings.Contains(r.stdout, "\n"+token) ||
		!strings.Contains(r.stderr, "shown once") || strings.Contains(r.stderr, token) {
		t.Fatalf("create: %s", r)
	}
	// The table shows a key's first scopes and how many more, so that even
	// the account's own key, which holds every scope, fits in 80 columns;
	// --json has them all.
	r = w.ok("api-keys", "list")
	if strings.Contains(r.stdout+r.stderr, token) || !strings.Contains(r.stdout, "ci reader") || !strings.Contains(r.stdout, "secrets:read +1") ||
		strings.Contains(r.stdout, "playgrounds:read") {
		t.Fatalf("list: %s", r)
	}
	if !regexp.MustCompile(`(?m)^\d+ +primary .* [a-z_]+:[a-z]+ \+\d{2}\b`).MatchString(r.stdout) {
		t.Errorf("list: the key holding every scope does not show the first and a count:\n%s", r.stdout)
	}
	for _, line := range strings.Split(strings.TrimRight(r.stdout, "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("list: a line of %d columns:\n%s", n, r.stdout)
		}
	}
	var keys []struct {
		ID     int64    `json:"id"`
		Label  string   `json:"label"`
		Token  string   `json:"token"`
		Scopes []string `json:"scopes"`
	}
	w.jsonOf(&keys, "api-keys", "list", "--label", "reader")
	if len(keys) != 1 || keys[0].Token != "" || strings.Join(keys[0].Scopes, " ") != "secrets:read playgrounds:read" {
		t.Fatalf("list --label reader: %+v", keys)
	}
	// The new key reads secrets and nothing else.
	reader := *w
	reader.env = map[string]string{}
	for k, v := range w.env {
		reader.env[k] = v
	}
	reader.env["FIBE_API_KEY"] = token
	reader.ok("secrets", "list")
	if r := reader.run("secrets", "set", "NOPE", "--value", "v"); r.code != 4 || !strings.Contains(r.stderr, "FORBIDDEN") && !strings.Contains(r.stderr, "scope") {
		t.Fatalf("a read key setting a secret: %s", r)
	}
	w.ok("api-keys", "delete", strconv.FormatInt(keys[0].ID, 10), "--yes")
	if r := reader.run("secrets", "list"); r.code != 4 || !strings.Contains(r.stderr, "UNAUTHORIZED") && !strings.Contains(r.stderr, "401") {
		t.Fatalf("the deleted key: %s", r)
	}
}

// fibe status counts what the account holds.
func TestCLIStatus(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.runIn("v", "secrets", "set", "COUNTED")
	var st struct {
		Secrets      int `json:"secrets"`
		Marquees     int `json:"marquees"`
		Subscription struct {
			Plan string `json:"plan"`
		} `json:"subscription"`
	}
	w.jsonOf(&st, "status")
	if st.Secrets != 1 || st.Marquees == 0 || st.Subscription.Plan == "" {
		t.Fatalf("status: %+v", st)
	}
	r := w.ok("status")
	mustContain(t, "status card", r.stdout, "Secrets", "Marquees", "Plan", "Quotas")
}
