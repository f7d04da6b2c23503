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

// At a terminal (colors on), the server's escape sequences are shown
// escaped in cards, tables and a text answer of `fibe api`.
func TestHostileEscapeSequencesAtATerminal(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	for _, args := range [][]string{{"pg", "get", "evil"}, {"pg", "list"}, {"mq", "get", "evil"}, {"mq", "list"}, {"api", "text"}, {"pg", "get", "bad"}} {
		out, _ := w.runTTY(nil, "", nil, args...)
		plain := sgr.ReplaceAllString(out, "")
		if strings.ContainsAny(plain, "\x1b\x07\u202e") {
			t.Fatalf("fibe %s wrote a raw escape to the terminal:\n%q", strings.Join(args, " "), out)
		}
		if !strings.Contains(plain, `\x1b[2J`) {
			t.Fatalf("fibe %s: the sequence is not shown escaped:\n%q", strings.Join(args, " "), out)
		}
	}
}
