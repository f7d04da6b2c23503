package output

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
func Sanitize(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
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
