package ops

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Each kind of result gets the card its own command prints, never a JSON
// dump: the card is chosen by the request that started the operation.
func TestPrintResultCards(t *testing.T) {
	cases := []struct {
		method, path string
		raw          string
		wants        []string
	}{
		{"POST", "/api/playgrounds/p/operations", `{"id": 7, "name": "p", "status": "running", "playspec_id": 1, "playspec_name": "web", "services": [{"name": "web", "status": "running"}]}`,
			[]string{"Name:", "p", "Playspec:", "web", "Services:"}},
		{"POST", "/api/playgrounds", `{"id": 8, "name": "new", "status": "pending"}`, []string{"Name:", "new", "Status:", "pending"}},
		{"POST", "/api/playgrounds/7/status", `{"id": 7, "name": "p", "status": "failed", "error_step": "build"}`, []string{"Name:", "p", "Failed step:", "build"}},
		{"PATCH", "/api/marquees/staging", `{"id": 3, "name": "staging", "host": "203.0.113.7", "port": 22, "user": "deploy", "status": "active"}`,
			[]string{"Host:", "203.0.113.7", "User:", "deploy"}},
		{"POST", "/api/playgrounds/p/logs", `{"lines": ["one", "two"]}`, []string{"one\ntwo\n"}},
		{"POST", "/api/marquees/3/ssh_keys", `{"public_key": "ssh-ed25519 AAAA fibe"}`, []string{"ssh-ed25519 AAAA fibe\n"}},
		{"GET", "/api/playgrounds/p/debug?refresh=true", `{"playground": {"id": 7, "name": "p", "status": "running"}, "startup": {"state": "running", "log_tail": ["up"]}}`,
			[]string{"Playground:", "p", "Startup:", "running", "Last log lines:", "up"}},
		{"POST", "/api/marquees/3/connection_tests", `{"success": true, "message": "connected to deploy@h:22"}`, []string{"✓ connected to deploy@h:22"}},
		{"POST", "/api/marquees/3/connection_tests", `{"ok": false, "error": "timed out"}`, []string{"✗ timed out"}},
		{"post", "/api/playgrounds/p/operations?x=1", `{"id": 7, "name": "p", "status": "stopped"}`, []string{"Name:", "p", "Status:", "stopped"}},
		{"PUT", "/api/marquees/3", `{"id": 3, "name": "staging", "host": "203.0.113.7", "port": 22, "user": "deploy"}`, []string{"Host:", "203.0.113.7"}},
		{"POST", "/api/marquees", `{"id": 4, "name": "new", "host": "198.51.100.1", "port": 22, "user": "root"}`, []string{"Host:", "198.51.100.1"}},
		// Unknown: an operation this machine did not start, a route with
		// no card (playspecs have no create), a result that does not read
		// as the route's.
		{"POST", "/api/playspecs", `{"id": 2, "name": "web", "host": "h"}`, []string{"Host:", "h", "Name:", "web"}},
		{"POST", "/api/playgroundsx/p/operations", `{"id": 7, "name": "p", "playspec_id": 1}`, []string{"Playspec id:", "1"}},
		{"", "", `{"widget_count": 3, "nested": {"a": 1}}`, []string{"Nested:", `{"a":1}`, "Widget count:", "3"}},
		{"POST", "/api/widgets", `{"name": "w", "host": "h"}`, []string{"Host:", "h", "Name:", "w"}},
		{"POST", "/api/marquees/3/ssh_keys", `{"fingerprint": "SHA256:x"}`, []string{"Fingerprint:", "SHA256:x"}},
	}
	for _, c := range cases {
		ios, _, out, _ := iostreams.Test()
		if err := printResult(ios, c.method, c.path, []byte(c.raw)); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.wants {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s %s %s: %q not in:\n%s", c.method, c.path, c.raw, w, out)
			}
		}
		if strings.HasPrefix(strings.TrimSpace(out.String()), "{") {
			t.Errorf("a JSON dump:\n%s", out)
		}
	}
}

// The keys of a result choose nothing: a result that looks like a
// playground, of an operation whose start is unknown, is printed field by
// field, not as a card.
func TestPrintResultNeverGuessesFromKeys(t *testing.T) {
	raw := `{"id": 7, "name": "p", "status": "running", "playspec_id": 1, "services": [{"name": "web"}]}`
	ios, _, out, _ := iostreams.Test()
	if err := printResult(ios, "", "", []byte(raw)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Playspec:") || !strings.Contains(out.String(), "Playspec id:") {
		t.Errorf("a card was guessed from the keys:\n%s", out)
	}
}

func TestValidRequestID(t *testing.T) {
	for id, ok := range map[string]bool{
		"req_5c1d": true, "req_4b690327fe66f19d": true, "op-1.2:x": true,
		"bad id!": false, "../x": false, "": false, "req/1": false, strings.Repeat("a", 129): false,
	} {
		err := validRequestID(id)
		if (err == nil) != ok {
			t.Errorf("%q: %v", id, err)
		}
		if err != nil && output.ExitCode(err) != output.ExitUsage {
			t.Errorf("%q: exit %d", id, output.ExitCode(err))
		}
	}
}

// A deletion's result is the deletion notice (stderr), nothing on stdout.
func TestPrintDeletedResult(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	if err := printResult(ios, "DELETE", "/api/playgrounds/old", []byte(`{"deleted": true, "name": "old"}`)); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(errOut.String(), "Deleted old.") {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}
