package output

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"demo":                     "demo",
		"naïve ✓ 日本":               "naïve ✓ 日本",
		"\x1b[2Jgone":              `\x1b[2Jgone`,
		"\x1b]0;pwned\x07":         `\x1b]0;pwned\x07`,
		"\x1b]52;c;Y2xpcA==\x1b\\": `\x1b]52;c;Y2xpcA==\x1b\`,
		"a\r\nb\tc":                `a\r\nb\tc`,
		"\u009b2J":                 `\x9b2J`,
		"x\x7fy":                   `x\x7fy`,
		"abc\u202etxt.exe":         `abc\u202etxt.exe`,
		"bad\xffbyte":              `bad\xffbyte`,
		"":                         "",
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSanitizeLogLine(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b[31mred\x1b[0m\tok": "\x1b[31mred\x1b[0m\tok",
		"\x1b[1;32mbold\x1b[m":   "\x1b[1;32mbold\x1b[m",
		"\x1b[2Jclear":           `\x1b[2Jclear`,
		"\x1b]52;c;eA==\x07":     `\x1b]52;c;eA==\x07`,
		"\x1b[31":                `\x1b[31`,
		"a\rb":                   `a\rb`,
	} {
		if got := SanitizeLogLine(in); got != want {
			t.Errorf("SanitizeLogLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// The error's details and hints went out raw: only the message was
// cleaned. Now nothing of the server reaches the terminal unescaped, and
// the JSON error document keeps the exact text.
func TestPrintErrorSanitizesDetailsButJSONStaysExact(t *testing.T) {
	e := &client.Error{Status: 422, Code: client.CodeValidation, Message: "bad\x1b[2J",
		RequestID: "req_\x1b]0;t\x07", Details: map[string]any{"name": []any{"is \x1b]52;c;eA==\x07taken"}, "step\x1b[1m": "x"}}
	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, e, nil, "")
	if strings.ContainsAny(errOut.String(), "\x1b\x07") {
		t.Fatalf("raw control characters reached the terminal: %q", errOut.String())
	}
	if !strings.Contains(errOut.String(), `is \x1b]52;c;eA==\x07taken`) {
		t.Errorf("the detail is not shown escaped: %q", errOut.String())
	}
	ios, _, _, errOut = iostreams.Test()
	ios.SetJSON(true)
	PrintError(ios, e, nil, "")
	if !bytes.Contains(errOut.Bytes(), []byte(`is \u001b]52;c;eA==\u0007taken`)) {
		t.Errorf("--json must keep the exact text: %s", errOut)
	}
	if got := ErrorLine(errors.New("x\x1b[2J")); got != `x\x1b[2J` {
		t.Errorf("ErrorLine = %q", got)
	}
}
