package output

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fibegg/fibe/internal/iostreams"
)

// Sanitize makes a string that came from a server safe to print for
// people: every control character is shown escaped instead of acting on
// the terminal. ESC becomes `\x1b` (so "ESC[2J" cannot clear the screen,
// and OSC 0 or OSC 52 cannot set the title or write the clipboard), CR,
// LF and TAB become `\r`, `\n`, `\t`, the C1 controls and DEL `\x..`,
// the bidirectional overrides `\u....` (they reorder what the eye reads),
// and a byte that is not UTF-8 `\x..`. Everything else is kept as is.
//
// It is the one sanitizer of the project: tables and cards (the values
// are sanitized before they reach internal/iostreams, which knows no
// server), error lines, details and hints, and progress lines. JSON output
// never goes through it: encoding/json escapes control characters itself
// and `--json` stays exact.
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeLogLine is Sanitize for a line of a program's log at a
// terminal: the same, except that color sequences (ESC [ digits and
// semicolons, then m) and tabs are kept, as programs write them. Nothing
// else acts on the terminal: no cursor movement, no title, no clipboard.
func SanitizeLogLine(s string) string { return sanitize(s, true) }

func sanitize(s string, log bool) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if log {
			if n := sgrLen(s[i:]); n > 0 {
				b.WriteString(s[i : i+n])
				i += n
				continue
			}
			if r == '\t' {
				b.WriteByte('\t')
				i++
				continue
			}
		}
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\x%02x`, r)
		case bidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// sgrLen is the length of the color sequence s starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 64; i++ {
		switch c := s[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0
		}
	}
	return 0
}

// LogLines are lines of a program's log as they are printed on ios: at a
// terminal through SanitizeLogLine, piped as they came (the program's own
// bytes, for the program reading them).
func LogLines(ios *iostreams.IOStreams, lines []string) []string {
	if !ios.IsStdoutTTY() {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = SanitizeLogLine(l)
	}
	return out
}

// SanitizeAll sanitizes each of cells, for a table row.
func SanitizeAll(cells ...string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Sanitize(c)
	}
	return out
}

// clean reports whether s has nothing Sanitize would change (the common
// case, which costs no allocation).
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			for _, r := range s[i:] {
				if r == utf8.RuneError || r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || bidiControl(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

// bidiControl reports the Unicode bidirectional embedding, override and
// isolate controls, and the implicit marks.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}
