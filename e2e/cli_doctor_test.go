package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// doctorWorld is a user with bash completion installed, so a healthy
// setup passes every check.
func doctorWorld(t *testing.T, cfg localapi.Config) *world {
	t.Helper()
	w := newWorld(t, cfg)
	w.env["SHELL"] = "/bin/bash"
	dir := filepath.Join(w.home, ".local", "share", "bash-completion", "completions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fibe"), []byte("# fibe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

type doctorReport struct {
	OK     bool `json:"ok"`
	Checks []struct {
		Name, Status, Detail, Fix string
	} `json:"checks"`
}

func (r doctorReport) check(t *testing.T, name string) (status, detail, fix string) {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c.Status, c.Detail, c.Fix
		}
	}
	t.Fatalf("no %s check in %+v", name, r)
	return
}

// lineOf returns the report line of a check.
func lineOf(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, " "+name+": ") {
			return l
		}
	}
	t.Fatalf("no %s line in\n%s", name, out)
	return ""
}

// A healthy setup: every line ✓, exit 0; --json says the same.
func TestDoctorHealthy(t *testing.T) {
	t.Parallel()
	w := doctorWorld(t, localapi.Config{})
	r := w.run("doctor")
	if r.code != 0 {
		t.Fatalf("doctor: %s", r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 9 {
		t.Errorf("%d lines, want 9 checks:\n%s", len(lines), r.stdout)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "✓ ") {
			t.Errorf("not a ✓ line: %q", l)
		}
	}
	mustContain(t, "doctor", r.stdout, "API key: from env FIBE_API_KEY", "scopes: ", w.url+" answers (", "Clock: within")
	if strings.Contains(r.stdout+r.stderr, w.key) {
		t.Error("doctor printed the key")
	}
	var rep doctorReport
	w.jsonOf(&rep, "doctor")
	if !rep.OK || len(rep.Checks) != 9 {
		t.Errorf("doctor --json: %+v", rep)
	}
}

// A key the API refuses: its ✗ line with a fix, exit 1.
func TestDoctorWrongKey(t *testing.T) {
	t.Parallel()
	w := doctorWorld(t, localapi.Config{})
	w.env["FIBE_API_KEY"] = "fibe_wrong_000000000000"
	r := w.run("doctor")
	if r.code != 1 {
		t.Fatalf("doctor with a wrong key: %s", r)
	}
	l := lineOf(t, r.stdout, "Key accepted")
	if !strings.HasPrefix(l, "✗ ") || !strings.Contains(l, "UNAUTHORIZED") || !strings.Contains(l, "→ run `fibe auth login --web`") {
		t.Errorf("key line %q", l)
	}
	if l := lineOf(t, r.stdout, "API"); !strings.HasPrefix(l, "✓ ") {
		t.Errorf("the API answered, yet: %q", l)
	}
	if strings.Contains(r.stdout+r.stderr, "fibe_wrong_000000000000") {
		t.Error("doctor printed the key")
	}
	// --json: the same verdict as a document, exit 1.
	r = w.run("doctor", "--json")
	var rep doctorReport
	if err := decodeOne(r.stdout, &rep); err != nil || r.code != 1 || rep.OK {
		t.Fatalf("doctor --json: %v\n%s", err, r)
	}
	if st, _, fix := rep.check(t, "Key accepted"); st != "fail" || fix == "" {
		t.Errorf("key check %s %q", st, fix)
	}
}

// A Redis state store that does not answer: its ✗ line names it (without
// the password) with a fix, exit 1.
func TestDoctorDeadRedis(t *testing.T) {
	t.Parallel()
	w := doctorWorld(t, localapi.Config{})
	w.env["FIBE_STATE_STORE"] = "redis://fibe:s3cret-pw@127.0.0.1:1/0"
	r := w.run("doctor")
	if r.code != 1 {
		t.Fatalf("doctor with a dead Redis: %s", r)
	}
	l := lineOf(t, r.stdout, "State store")
	if !strings.HasPrefix(l, "✗ ") || !strings.Contains(l, "127.0.0.1:1") || !strings.Contains(l, "→ start Redis") {
		t.Errorf("state store line %q", l)
	}
	if strings.Contains(r.stdout+r.stderr, "s3cret-pw") {
		t.Errorf("doctor printed the store's password:\n%s", r)
	}
}

// An open breaker: its ✗ line with the reset command, exit 1.
func TestDoctorOpenBreaker(t *testing.T) {
	t.Parallel()
	w := doctorWorld(t, localapi.Config{Chaos: "503=1"})
	w.env["FIBE_MAX_RETRIES"] = "0"
	for range 5 {
		if r := w.run("pg", "list"); r.code != 12 && r.code != 9 {
			t.Fatalf("pg list under 503=1: %s", r)
		}
	}
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	r := w.run("doctor", "--json")
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 1 {
		t.Fatalf("doctor --json with an open breaker: %v\n%s", err, r)
	}
	st, detail, fix := rep.check(t, "Breakers")
	if st != "fail" || !strings.Contains(detail, "open: api/") || !strings.Contains(fix, "fibe breaker reset") {
		t.Errorf("breakers check %s %q %q", st, detail, fix)
	}
	r = w.run("doctor")
	if l := lineOf(t, r.stdout, "Breakers"); !strings.HasPrefix(l, "✗ ") || !strings.Contains(l, "→ ") {
		t.Errorf("breakers line %q", l)
	}
	// Reset as told: healthy again.
	w.ok("breaker", "reset")
	if r := w.run("doctor"); r.code != 0 {
		t.Errorf("doctor after breaker reset: %s", r)
	}
}

// A Redis state store that answers: ✓ with its latency, the password never
// shown.
func TestDoctorRedis(t *testing.T) {
	t.Parallel()
	rs := redistest.Start(t)
	w := doctorWorld(t, localapi.Config{})
	w.env["FIBE_STATE_STORE"] = rs.URL(3)
	var rep doctorReport
	r := w.jsonOf(&rep, "doctor")
	st, detail, _ := rep.check(t, "State store")
	if r.code != 0 || st != "ok" || !strings.Contains(detail, rs.Addr+"/3 answers (") {
		t.Errorf("doctor with Redis: %s %q\n%s", st, detail, r)
	}
}
