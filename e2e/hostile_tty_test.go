//go:build linux || darwin

package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// sgr is a color sequence: the only escape fibe itself writes to a
// terminal in these commands.
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// rawServerEscape reports whether out holds one of the hostile server's
// sequences unescaped (fibe's own spinner and colors write others).
func rawServerEscape(out string) bool {
	for _, seq := range []string{"\x1b[2J", "\x1b]0;", "\x1b]52;", "\x07", "\u202e"} {
		if strings.Contains(out, seq) {
			return true
		}
	}
	return false
}

// At a terminal (colors on), the server's escape sequences are shown
// escaped in cards, tables and a text answer of `fibe api`.
func TestHostileEscapeSequencesAtATerminal(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	for _, args := range [][]string{{"pg", "get", "evil"}, {"pg", "list"}, {"mq", "get", "evil"}, {"mq", "list"}, {"api", "text"}, {"pg", "get", "bad"},
		{"pg", "env", "evil"}, {"pg", "compose", "evil"}, {"pg", "debug", "evil"}} {
		out, _ := w.runTTY(nil, "", nil, args...)
		plain := sgr.ReplaceAllString(out, "")
		if rawServerEscape(out) {
			t.Fatalf("fibe %s wrote a raw escape to the terminal:\n%q", strings.Join(args, " "), out)
		}
		if !strings.Contains(plain, `\x1b[2J`) {
			t.Fatalf("fibe %s: the sequence is not shown escaped:\n%q", strings.Join(args, " "), out)
		}
	}
}

// A log line keeps its colors at a terminal, and nothing else of it acts
// on the terminal; piped, it is the program's bytes as they came.
func TestHostileLogLinesAtATerminal(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	out, code := w.runTTY(nil, "", nil, "pg", "logs", "evil")
	if code != 0 || !strings.Contains(out, "\x1b[31mred\x1b[0m") {
		t.Fatalf("exit %d, the log's colors are lost:\n%q", code, out)
	}
	if rawServerEscape(out) || !strings.Contains(out, `log x\x1b[2J`) {
		t.Fatalf("a log line acted on the terminal:\n%q", out)
	}
	if r := w.ok("pg", "logs", "evil"); !strings.Contains(r.stdout, "log "+esc) {
		t.Fatalf("piped, the lines must come as they are: %q", r.stdout)
	}
}
