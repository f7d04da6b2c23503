package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

type pendingEntry struct {
	Key       string `json:"idempotency_key"`
	Operation string `json:"operation"`
	Method    string `json:"method"`
	Path      string `json:"path"`
	API       string `json:"api"`
	Profile   string `json:"profile"`
}

// A create whose answer is lost, run again exactly as typed (no key
// copied), finishes as a replay: one playground, no "already taken".
func TestCLIJournalPlainReRunFinishesALostCreate(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "commit-then-502=1"})
	create := []string{"pg", "create", "--name", "lost-1", "--playspec", "web", "--max-retries", "0"}
	expectExit(t, w, 12, "", create...)
	var list []pendingEntry
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 1 || list[0].Operation != "create playground" || list[0].Method != "POST" || list[0].API != w.url || list[0].Profile != "default" {
		t.Fatalf("ops pending: %+v", list)
	}
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	r := w.ok(create...)
	mustContain(t, "re-run stderr", r.stderr, "Reusing idempotency key "+list[0].Key[:8]+"… of the unfinished create playground at ",
		"--new-key starts a new one", "Replayed")
	st := w.server.Stats()
	if st.Creates["lost-1"] != 1 || st.Replays == 0 {
		t.Fatalf("creates %v replays %d", st.Creates, st.Replays)
	}
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 0 {
		t.Fatalf("a success must leave nothing pending: %+v", list)
	}
	// --json keeps stdout one document; the notice stays on stderr.
	if err := w.server.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	if r := w.run("pg", "create", "--name", "lost-2", "--playspec", "web", "--max-retries", "0", "--json"); r.code != 12 || r.stdout != "" {
		t.Fatalf("lost create with --json: %s", r)
	}
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	var pg map[string]any
	r = w.jsonOf(&pg, "pg", "create", "--name", "lost-2", "--playspec", "web", "--max-retries", "0")
	if pg["name"] != "lost-2" || !strings.Contains(r.stderr, "Reusing idempotency key") {
		t.Fatalf("%v\n%s", pg, r)
	}
}

// With --api-url local the pending entry names the API as the user typed
// it, and its age is given to the second.
func TestCLIOpsPendingOfTheLocalAPI(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_API_URL"] = "local"
	w.env["FIBE_LOCAL_SPEED"] = "50"
	w.env["FIBE_LOCAL_CHAOS"] = "commit-then-502=1"
	expectExit(t, w, 12, "", "pg", "create", "--name", "lp-1", "--playspec", "web", "--max-retries", "0")
	delete(w.env, "FIBE_LOCAL_CHAOS")
	var list []pendingEntry
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 1 || list[0].API != "local" {
		t.Fatalf("ops pending of --api-url local: %+v", list)
	}
	r := w.ok("ops", "pending")
	if !regexp.MustCompile(`  local  +default +\d\d:\d\d:\d\d \((just now|\d+s ago)\)`).MatchString(r.stdout) || strings.Contains(r.stdout, "local.fibe") {
		t.Errorf("ops pending table:\n%s", r.stdout)
	}
}

func TestCLIJournalNewKeyForgetAndWindow(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "commit-then-502=1"})
	create := []string{"pg", "create", "--name", "nk-1", "--playspec", "web", "--max-retries", "0"}
	expectExit(t, w, 12, "", create...)
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	// --new-key is a new operation: the server refuses the name.
	r := expectExit(t, w, 5, "VALIDATION_FAILED", append(create, "--new-key")...)
	if strings.Contains(r.stderr, "Reusing") {
		t.Fatalf("--new-key reused a key:\n%s", r)
	}
	var list []pendingEntry
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 1 {
		t.Fatalf("pending: %+v", list)
	}
	expectExit(t, w, 2, "", "ops", "forget")
	expectExit(t, w, 2, "", "ops", "forget", list[0].Key, "--all")
	r = w.ok("ops", "forget", "no-such-key")
	mustContain(t, "unknown key", r.stderr, "nothing to forget")
	r = w.ok("ops", "forget", list[0].Key)
	mustContain(t, "forget", r.stderr, "Forgot the create playground")
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 0 {
		t.Fatalf("pending after forget: %+v", list)
	}
	expectExit(t, w, 5, "VALIDATION_FAILED", create...)

	// A window of 0 turns the journal off; bad windows are usage errors.
	if err := w.server.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	w.env["FIBE_JOURNAL_WINDOW"] = "0"
	expectExit(t, w, 12, "", "pg", "create", "--name", "off-1", "--playspec", "web", "--max-retries", "0")
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 0 {
		t.Fatalf("journal_window 0 still journaled: %+v", list)
	}
	for _, bad := range []string{"25h", "-1m", "soon"} {
		w.env["FIBE_JOURNAL_WINDOW"] = bad
		r := expectExit(t, w, 2, "", "pg", "create", "--name", "x", "--playspec", "web")
		mustContain(t, "bad window "+bad, r.stderr, "journal_window")
	}
	delete(w.env, "FIBE_JOURNAL_WINDOW")
	r = w.ok("ops", "forget", "--all")
	mustContain(t, "forget --all", r.stderr, "Forgot")
	var raw json.RawMessage
	w.jsonOf(&raw, "ops", "pending")
	if strings.TrimSpace(string(raw)) != "[]" {
		t.Fatalf("pending after --all: %s", raw)
	}
}

// kill -9 after the create committed and before its answer came: the
// journal written before the first attempt is readable, and the plain
// re-run finishes the create as a replay.
func TestCLIJournalSurvivesKill9(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "commit-then-hang=1:1s"})
	p := w.start("pg", "create", "--name", "k9", "--playspec", "web")
	deadline := time.Now().Add(10 * time.Second)
	for w.server.Stats().Creates["k9"] == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the create never reached the server")
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, bounded above
	}
	_ = p.cmd.Process.Kill()
	p.wait(t, 10*time.Second)
	var list []pendingEntry
	w.jsonOf(&list, "ops", "pending")
	if len(list) != 1 || list[0].Operation != "create playground" {
		t.Fatalf("pending after kill -9: %+v", list)
	}
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	// The killed request is still in flight on the server for up to 1 s:
	// the re-run, which shares its key, waits that out (409 in flight).
	r := w.ok("pg", "create", "--name", "k9", "--playspec", "web", "--max-retries", "10")
	mustContain(t, "re-run", r.stderr, "Reusing idempotency key "+list[0].Key[:8], "Replayed")
	if n := w.server.Stats().Creates["k9"]; n != 1 {
		t.Fatalf("created %d times", n)
	}
}
