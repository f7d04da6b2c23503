package ops

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Each kind of result gets the card its own command prints, never a JSON dump.
func TestPrintResultCards(t *testing.T) {
	cases := []struct {
		raw   string
		wants []string
	}{
		{`{"id": 7, "name": "p", "status": "running", "playspec_id": 1, "playspec_name": "web", "services": [{"name": "web", "status": "running"}]}`,
			[]string{"Name:", "p", "Playspec:", "web", "Services:"}},
		{`{"id": 3, "name": "staging", "host": "203.0.113.7", "port": 22, "user": "deploy", "status": "active"}`,
			[]string{"Host:", "203.0.113.7", "User:", "deploy"}},
		{`{"lines": ["one", "two"]}`, []string{"one\ntwo\n"}},
		{`{"public_key": "ssh-ed25519 AAAA fibe"}`, []string{"ssh-ed25519 AAAA fibe\n"}},
		{`{"ok": true, "message": "connected to deploy@h:22"}`, []string{"✓ connected to deploy@h:22"}},
		{`{"widget_count": 3, "nested": {"a": 1}}`, []string{"Nested:", `{"a":1}`, "Widget count:", "3"}},
	}
	for _, c := range cases {
		ios, _, out, _ := iostreams.Test()
		if err := printResult(ios, []byte(c.raw)); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.wants {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: %q not in:\n%s", c.raw, w, out)
			}
		}
		if strings.HasPrefix(strings.TrimSpace(out.String()), "{") {
			t.Errorf("a JSON dump:\n%s", out)
		}
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
