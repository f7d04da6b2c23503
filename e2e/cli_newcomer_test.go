package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A create whose answer is lost after it committed: the error says the
// outcome is unknown and gives the command that finishes it; running that
// command replays the first answer, so the playground exists once.
func TestUnknownOutcomeSaysHowToFinish(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "commit-then-502=1"})
	r := expectExit(t, w, 12, "", "pg", "create", "--name", "lost", "--playspec", "web", "--max-retries", "0")
	m := regexp.MustCompile(`Outcome unknown: the create may have been applied\. Run the same command again to finish it \(it reuses key ([0-9a-f]{32})\), or pass --idempotency-key ([0-9a-f]{32})\.`).FindStringSubmatch(r.stderr)
	if m == nil || m[1] != m[2] {
		t.Fatalf("no unknown-outcome line:\n%s", r.stderr)
	}
	mustContain(t, "stderr", r.stderr, "Retry it safely with: fibe pg create --name lost --playspec web --max-retries 0 --idempotency-key "+m[1])
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	done := w.ok("pg", "create", "--name", "lost", "--playspec", "web", "--idempotency-key", m[1])
	mustContain(t, "replay", done.stderr, "Replayed", "as it is now")
	if n := w.server.Stats().Creates["lost"]; n != 1 {
		t.Errorf("created %d times", n)
	}

	// The JSON error document carries the key that finishes it as data.
	if err := w.server.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	r = w.run("pg", "create", "--name", "lost2", "--playspec", "web", "--max-retries", "0", "--json")
	if r.code != 12 || r.stdout != "" {
		t.Fatalf("want exit 12 and no stdout: %s", r)
	}
	var doc struct {
		Error struct {
			IdempotencyKey string `json:"idempotency_key"`
			Resume         struct {
				IdempotencyKey string `json:"idempotency_key"`
			} `json:"resume"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stderr), &doc); err != nil || doc.Error.Resume.IdempotencyKey == "" || doc.Error.Resume.IdempotencyKey != doc.Error.IdempotencyKey {
		t.Errorf("resume in the error document: %v\n%s", err, r.stderr)
	}
}

// The README's first command run again after `pg delete demo --yes`: the
// replay of the user's own key finds the playground gone, says so, offers
// another key (not --new-key: the key is the user's), and exits 6.
func TestReplayedCreateOfADeletedPlaygroundExits6(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	create := []string{"pg", "create", "--name", "demo", "--playspec", "web", "--idempotency-key", "readme-demo"}
	w.ok(create...)
	w.ok("pg", "delete", "demo", "--yes")
	r := expectExit(t, w, 6, "CONFLICT", create...)
	mustContain(t, "stderr", r.stderr, "no longer exists", "pass a different --idempotency-key")
	for _, not := range []string{"--new-key", "pg rollout", "recorded at the first request"} {
		if strings.Contains(r.stderr, not) {
			t.Errorf("stderr says %q:\n%s", not, r.stderr)
		}
	}
	if n := w.server.Stats().Creates["demo"]; n != 1 {
		t.Errorf("created %d times", n)
	}
}

// A pg wait that runs out names the playground and what it waited for.
func TestPlaygroundWaitTimeoutNamesThePlayground(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "waits", "--playspec", "web")
	w.ok("pg", "wait", "waits")
	r := expectExit(t, w, 10, "ASYNC_TIMEOUT", "pg", "wait", "waits", "--for", "stopped", "--wait-timeout", "300ms")
	mustContain(t, "stderr", r.stderr, "ASYNC_TIMEOUT: playground waits is still running; the wait for stopped ended after 300ms",
		"Wait again with: fibe pg wait waits --for stopped")
}

// A create refused with a terminal 4xx surely did not run: nothing is said
// of an unknown outcome or a key.
func TestRefusedCreateSaysNothingOfAnOutcome(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	r := expectExit(t, w, 5, "VALIDATION_FAILED", "pg", "create", "--name", "x", "--playspec", "web", "--marquee", "nope")
	mustContain(t, "known marquees", r.stderr, "known: local, prod-eu, unpaid")
	for _, no := range []string{"Outcome", "idempotency-key", "Retry it"} {
		if strings.Contains(r.stderr, no) {
			t.Errorf("%q in:\n%s", no, r.stderr)
		}
	}
}

// A CONFLICT says which operation is in the way, apart from the refused
// request's own id.
func TestConflictNamesTheOtherOperation(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 1})
	w.ok("pg", "create", "--name", "busy", "--playspec", "web")
	var h struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&h, "pg", "rollout", "busy", "--no-wait")
	r := expectExit(t, w, 6, "CONFLICT", "pg", "rollout", "busy")
	mustContain(t, "hint", r.stderr, "Another operation, "+h.RequestID+", is running on it: wait for it with fibe ops wait "+h.RequestID)
}

// Payload errors through the binary: the file, the line and column, what
// was expected; nothing is sent.
func TestPayloadErrorsThroughTheBinary(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	before := total(w.server.Stats())
	bad := write("bad.json", "{\n  \"name\": \"a\",\n  \"playspec\": nope\n}\n")
	r := expectExit(t, w, 2, "", "pg", "create", "-f", bad)
	mustContain(t, "syntax error", r.stderr, "bad.json: line 3, column 16: unexpected 'o'", "expected a JSON object of playground fields")
	arr := write("arr.json", `[{"name": "a"}]`)
	r = expectExit(t, w, 2, "", "pg", "create", "-f", arr)
	mustContain(t, "array", r.stderr, "arr.json is an array; expected a JSON object")
	mixed := write("mixed.json", `{"playground": {"name": "a", "playspec_id": "web"}, "name": "b"}`)
	r = expectExit(t, w, 2, "", "pg", "create", "-f", mixed)
	mustContain(t, "mixed", r.stderr, `both a "playground" object and top-level field "name"`)
	for _, out := range []string{r.stderr} {
		if strings.Contains(out, "Go value") || strings.Contains(out, "literal null") {
			t.Errorf("Go internals:\n%s", out)
		}
	}
	if after := total(w.server.Stats()); after != before {
		t.Errorf("%d requests sent for bad payloads", after-before)
	}

	// The CLI's own names are accepted; unknown fields are sent, with a warning.
	good := write("good.json", `{"name": "named", "playspec": "web", "color": "red"}`)
	r = w.ok("pg", "create", "-f", good)
	mustContain(t, "warning", r.stderr, `Warning: payload `+good+`: field "color" is not known to this version of fibe (it knows name, playspec_id, marquee_id, env_overrides); sent as given.`)
}

// ops wait and ops get print the result's card; --json the raw result.
// A request id no server could have given is refused before sending.
func TestOpsPrintCards(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "carded", "--playspec", "web")
	var h struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&h, "pg", "rollout", "carded", "--no-wait")
	r := w.ok("ops", "wait", h.RequestID)
	mustContain(t, "ops wait card", r.stdout, "Name:", "carded", "Status:", "running", "Services:")
	if strings.Contains(r.stdout, "{") {
		t.Errorf("a JSON dump in human mode:\n%s", r.stdout)
	}
	r = w.ok("ops", "get", h.RequestID)
	mustContain(t, "ops get card", r.stdout, "Request:", h.RequestID, "Name:", "carded")
	if strings.Contains(r.stdout, "Result:") || strings.Contains(r.stdout, "{") {
		t.Errorf("a JSON dump in human mode:\n%s", r.stdout)
	}
	var result map[string]any
	w.jsonOf(&result, "ops", "wait", h.RequestID)
	if result["name"] != "carded" {
		t.Errorf("--json: %v", result)
	}

	before := total(w.server.Stats())
	r = expectExit(t, w, 2, "", "ops", "wait", "bad id!")
	mustContain(t, "bad id", r.stderr, `invalid request id "bad id!"`)
	expectExit(t, w, 2, "", "ops", "get", "../../api/playgrounds")
	if after := total(w.server.Stats()); after != before {
		t.Errorf("%d requests sent for bad ids", after-before)
	}
}

// Arguments refused in the user's words, nothing sent.
func TestArgumentsInTheUsersWords(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "demo", "--playspec", "web")
	before := total(w.server.Stats())
	r := expectExit(t, w, 2, "", "pg", "get", strings.Repeat("a", 100000))
	mustContain(t, "long name", r.stderr, "is 100000 characters long; a name has at most 63 characters")
	r = expectExit(t, w, 2, "", "pg", "lst")
	mustContain(t, "suggestion", r.stderr, `did you mean "list"`)
	if after := total(w.server.Stats()); after != before {
		t.Errorf("%d requests sent", after-before)
	}

	// The same unknown service gets the same answer with or without --follow.
	for _, follow := range []bool{false, true} {
		args := []string{"pg", "logs", "demo", "--service", "nope"}
		if follow {
			args = append(args, "--follow")
		}
		r := expectExit(t, w, 5, "VALIDATION_FAILED", args...)
		mustContain(t, "services", r.stderr, "(web, worker, db)")
	}
}

// An open breaker shows what opened it and when it will probe.
func TestBreakerStatusShowsWhatOpenedIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "503=1"})
	for i := 0; i < 5; i++ {
		expectExit(t, w, 12, "", "mq", "list", "--max-retries", "0")
	}
	r := w.ok("breaker", "status")
	mustContain(t, "breaker status", r.stdout, "open", "5 in a row", "NEXT PROBE", "in ")
}

// A version built without a date stamp leaves the date out.
func TestVersionLeavesOutWhatIsUnknown(t *testing.T) {
	t.Parallel()
	r := newUser(t).ok("version")
	mustContain(t, "version", r.stdout, "fibe 9.9.9-test (commit abc1234, ")
	if strings.Contains(r.stdout, "unknown") || strings.Contains(r.stdout, "none") {
		t.Errorf("unknown stamps printed: %s", r.stdout)
	}
}
