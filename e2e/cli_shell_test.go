package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// runningPlayground makes a world with one running playground.
func runningPlayground(t *testing.T, name string) *world {
	t.Helper()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", name, "--playspec", "web")
	w.ok("pg", "rollout", name)
	return w
}

// A script pipes lines into the shell: they run in order, the output is
// on stdout, and the exit code is the remote shell's.
func TestShellPipedScript(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "sh")
	r := w.runIn("ls\necho hello  world\nexit\n", "pg", "shell", "sh")
	if r.code != 0 || r.stdout != "Dockerfile  README.md  app.py  static\nhello world\n" {
		t.Fatalf("piped script: %s", r)
	}
	// No exit: the end of stdin ends the shell with the last status.
	r = w.runIn("nope\n", "pg", "shell", "sh", "--service", "worker")
	if r.code != 127 || !strings.Contains(r.stdout, "sh: nope: command not found") {
		t.Fatalf("remote status: %s", r)
	}
	// Binary and invalid UTF-8 input is passed on, not crashed on.
	r = w.runIn("echo \xff\xfe\x00bin\nexit 3\n", "pg", "shell", "sh")
	if r.code != 3 || !strings.Contains(r.stdout, "bin") {
		t.Fatalf("binary input: %s", r)
	}
}

// --json prints every frame as NDJSON, the last one the exit code, so a
// script can tell a remote 3 from fibe's own "not found".
func TestShellJSONFrames(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "shj")
	r := w.runIn("echo hi\nexit 3\n", "pg", "shell", "shj", "--json")
	if r.code != 3 || r.stderr != "" {
		t.Fatalf("--json: %s", r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var frames []map[string]any
	for _, l := range lines {
		var f map[string]any
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("not NDJSON: %q", l)
		}
		frames = append(frames, f)
	}
	if frames[0]["type"] != "output" || frames[0]["data"] != "hi\n" {
		t.Fatalf("first frame %v", frames[0])
	}
	if last := frames[len(frames)-1]; last["type"] != "exit" || last["code"] != float64(3) {
		t.Fatalf("last frame %v", last)
	}
}

// -- COMMAND runs one command and exits with its code.
func TestShellOneCommand(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "sho")
	if r := w.run("pg", "shell", "sho", "--", "echo", "one", "shot"); r.code != 0 || r.stdout != "one shot\n" {
		t.Fatalf("one command: %s", r)
	}
	if r := w.run("pg", "shell", "sho", "-s", "db", "--", "exit", "7"); r.code != 7 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("exit code: %s", r)
	}
}

func TestShellBadInput(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "shb")
	r := w.run("pg", "shell", "shb", "--service", "nope")
	if r.code != 5 || !strings.Contains(r.stderr, "VALIDATION_FAILED") || !strings.Contains(r.stderr, "web, worker, db") {
		t.Fatalf("unknown service: %s", r)
	}
	if r := w.run("pg", "shell", "missing"); r.code != 3 {
		t.Fatalf("unknown playground: %s", r)
	}
	before := w.server.CableStats().Connections
	for _, args := range [][]string{{"pg", "shell"}, {"pg", "shell", "shb", "--"}, {"pg", "shell", " "}, {"pg", "shell", "a", "b"}, {"pg", "shell", "shb", "-s", ""}} {
		if r := w.run(args...); r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") > 1 || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("%v: %s", args, r)
		}
	}
	if after := w.server.CableStats().Connections; after != before {
		t.Errorf("usage errors opened %d connections", after-before)
	}
	w.ok("pg", "stop", "shb")
	r = w.run("pg", "shell", "shb")
	if r.code != 6 || !strings.Contains(r.stderr, "stopped") {
		t.Fatalf("stopped playground: %s", r)
	}
}

// A one-shot command whose session expires is not run again: exit 12,
// SESSION_EXPIRED, saying its outcome is unknown.
func TestShellCommandExpiryIsNotRunAgain(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "she")
	if err := w.server.SetChaos("cable-expire=1"); err != nil {
		t.Fatal(err)
	}
	r := w.run("pg", "shell", "she", "--", "echo", "x")
	if r.code != 12 || !strings.Contains(r.stderr, "SESSION_EXPIRED") || !strings.Contains(r.stderr, "not run again") {
		t.Fatalf("expired command: %s", r)
	}
	if st := w.server.CableStats(); st.Terminals != 1 {
		t.Fatalf("%d terminal sessions, want 1", st.Terminals)
	}
}

// Intermittent expiries do not end a followed log (each gets its
// recovery); expiries right after every confirmation end it with
// SESSION_EXPIRED, exit 12, never an auth error.
func TestFollowLogsSessionExpiry(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "fle")
	if err := w.server.SetChaos("cable-expire=0.3"); err != nil {
		t.Fatal(err)
	}
	p := w.start("pg", "logs", "fle", "--follow", "--tail", "5")
	p.waitFor(t, 20e9, "40 lines through the expiries", func(stdout, _ string) bool { return strings.Count(stdout, "\n") >= 40 })
	_ = p.cmd.Process.Signal(interrupt)
	if r := p.wait(t, 10e9); r.code != 130 {
		t.Fatalf("intermittent expiries: %s", r)
	}
	if st := w.server.CableStats(); st.Expiries < 3 {
		t.Fatalf("only %d expiries", st.Expiries)
	}

	if err := w.server.SetChaos("cable-expire=1"); err != nil {
		t.Fatal(err)
	}
	w.env["FIBE_MAX_RETRIES"] = "1"
	r := w.run("pg", "logs", "fle", "--follow", "--tail", "5")
	if r.code != 12 || !strings.Contains(r.stderr, "SESSION_EXPIRED") || strings.Contains(r.stderr, "API key") {
		t.Fatalf("persistent expiry: %s", r)
	}
}
