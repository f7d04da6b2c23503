package iostreams

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestColorDecision(t *testing.T) {
	cases := []struct {
		name    string
		tty     bool
		vars    map[string]string
		noColor bool
		want    bool
	}{
		{"terminal", true, nil, false, true},
		{"not a terminal", false, nil, false, false},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, false, false},
		{"NO_COLOR empty still counts", true, map[string]string{"NO_COLOR": ""}, false, false},
		{"--no-color", true, nil, true, false},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false, false},
	}
	for _, c := range cases {
		ios := New(nil, &bytes.Buffer{}, &bytes.Buffer{}, Terminals{Stdout: c.tty}, env(c.vars))
		ios.SetNoColor(c.noColor)
		if got := ios.ColorEnabled(); got != c.want {
			t.Errorf("%s: ColorEnabled = %v, want %v", c.name, got, c.want)
		}
		painted := ios.ColorScheme().Green("ok")
		if strings.Contains(painted, "\x1b") != c.want {
			t.Errorf("%s: painted %q", c.name, painted)
		}
	}
}

func TestSpinnerDecision(t *testing.T) {
	cases := []struct {
		name  string
		tty   bool
		vars  map[string]string
		json  bool
		quiet bool
		want  bool
	}{
		{"terminal", true, nil, false, false, true},
		{"piped", false, nil, false, false, false},
		{"CI", true, map[string]string{"CI": "true"}, false, false, false},
		{"json", true, nil, true, false, false},
		{"quiet", true, nil, false, true, false},
	}
	for _, c := range cases {
		ios := New(nil, &bytes.Buffer{}, &bytes.Buffer{}, Terminals{Stderr: c.tty}, env(c.vars))
		ios.SetJSON(c.json)
		ios.SetQuiet(c.quiet)
		if got := ios.SpinnerAllowed(); got != c.want {
			t.Errorf("%s: SpinnerAllowed = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestPromptsNeedATerminal(t *testing.T) {
	ios, _, _, _ := Test()
	ctx := context.Background()
	if _, err := ios.AskSecret(ctx, "key: "); err != ErrNoTerminal {
		t.Errorf("AskSecret without a terminal: %v", err)
	}
	if _, err := ios.AskYesNo(ctx, "sure?"); err != ErrNoTerminal {
		t.Errorf("AskYesNo without a terminal: %v", err)
	}
	ios = New(strings.NewReader("yes\n"), &bytes.Buffer{}, &bytes.Buffer{}, Terminals{Stdin: true, Stderr: true}, nil)
	if ok, err := ios.AskYesNo(ctx, "sure?"); !ok || err != nil {
		t.Errorf("AskYesNo yes: %v %v", ok, err)
	}

	// An interrupt while the prompt waits for a line ends it at once with
	// ErrInterrupted, which still says why the context ended.
	blocked, _ := io.Pipe() // never written: the read blocks
	ios = New(blocked, &bytes.Buffer{}, &bytes.Buffer{}, Terminals{Stdin: true, Stderr: true}, nil)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ios.AskYesNo(cctx, "sure?"); !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("AskYesNo after Ctrl-C: %v", err)
	}
}

func TestTableAlignsColoredCells(t *testing.T) {
	var b bytes.Buffer
	cs := newColorScheme(true)
	tb := NewTable(&b, nil, "NAME", "STATUS", "AGE")
	tb.AddRow("a", cs.Green("running"), "1h")
	tb.AddRow("longer-name", "x", "")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(ansiEscape().ReplaceAllString(b.String(), ""), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%q", b.String())
	}
	col := strings.Index(lines[0], "STATUS")
	if strings.Index(lines[1], "running") != col || strings.Index(lines[2], "x") != col {
		t.Errorf("misaligned:\n%s", strings.Join(lines, "\n"))
	}
	if strings.HasSuffix(lines[2], " ") {
		t.Errorf("trailing spaces: %q", lines[2])
	}
}

func TestPrintJSONAndJQ(t *testing.T) {
	ios, _, out, _ := Test()
	if err := ios.PrintJSON([]map[string]any{{"id": 9007199254740993, "name": "a<b"}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "9007199254740993") || !strings.Contains(out.String(), `"a<b"`) {
		t.Errorf("PrintJSON: %s", out)
	}

	ios, _, out, _ = Test()
	q, err := CompileJQ(".[] | .id, .name")
	if err != nil {
		t.Fatal(err)
	}
	ios.SetJQ(q)
	if !ios.JSON() {
		t.Error("--jq must imply --json")
	}
	if err := ios.PrintJSON([]map[string]any{{"id": 9007199254740993, "name": "a"}}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "9007199254740993\na\n" {
		t.Errorf("jq output %q", out)
	}
	if _, err := CompileJQ(".["); err == nil || !strings.HasPrefix(err.Error(), "invalid --jq expression: ") {
		t.Errorf("bad jq: %v", err)
	}
}

// YAML output parsed back is the JSON document: strings that look like
// other types stay strings, big ids stay exact, key order is kept, and
// --jq or NDJSON lines are not affected.
func TestPrintYAMLMeansTheSameAsJSON(t *testing.T) {
	doc := map[string]any{
		"id": int64(9007199254740993), "name": "web", "flags": []any{"true", "no", "0123", "1e3", "null", "", "a: b", "- x", "#c", "multi\nline", "tab\tx", "ünï"},
		"nested": map[string]any{"empty": map[string]any{}, "list": []any{}, "nil": nil, "f": 1.5, "b": false},
	}
	s, _, out, _ := Test()
	s.SetYAML(true)
	if !s.JSON() || !s.YAML() {
		t.Fatal("SetYAML does not imply JSON")
	}
	if err := s.PrintJSON(doc); err != nil {
		t.Fatal(err)
	}
	var back any
	if err := yaml.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want, _ := json.Marshal(doc)
	got, _ := json.Marshal(back)
	var w, g any
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.UseNumber()
	_ = dec.Decode(&w)
	dec = json.NewDecoder(bytes.NewReader(got))
	dec.UseNumber()
	_ = dec.Decode(&g)
	if !reflect.DeepEqual(w, g) {
		t.Errorf("YAML parsed back differs:\n%s\nwant %s\ngot  %s", out, want, got)
	}
	if strings.Contains(out.String(), "{\"") || strings.Contains(out.String(), "[\"") {
		t.Errorf("flow style left in:\n%s", out)
	}
	// Key order is the document's (a struct's field order).
	out.Reset()
	if err := s.PrintJSON(struct {
		Z string `json:"z"`
		A string `json:"a"`
	}{"1", "2"}); err != nil || out.String() != "z: \"1\"\na: \"2\"\n" {
		t.Errorf("ordered document: %q %v", out, err)
	}
	// Streams stay NDJSON.
	out.Reset()
	if err := s.PrintJSONLine(map[string]any{"line": "x"}); err != nil || out.String() != "{\"line\":\"x\"}\n" {
		t.Errorf("NDJSON line under YAML: %q %v", out, err)
	}
}

// A browser is opened only for someone at a terminal with a display: never
// in CI, never without a terminal, over SSH only with a forwarded DISPLAY.
func TestCanOpenBrowser(t *testing.T) {
	for _, c := range []struct {
		name string
		tty  bool
		vars map[string]string
		want bool
	}{
		{"no terminal", false, map[string]string{"DISPLAY": ":0"}, false},
		{"CI", true, map[string]string{"DISPLAY": ":0", "CI": "true"}, false},
		{"ssh without display", true, map[string]string{"SSH_CONNECTION": "1 2 3 4", "WAYLAND_DISPLAY": "w"}, false},
		{"ssh with X forwarding", true, map[string]string{"SSH_TTY": "/dev/pts/1", "DISPLAY": "localhost:10"}, true},
		{"desktop", true, map[string]string{"DISPLAY": ":0"}, true},
	} {
		s := New(nil, &bytes.Buffer{}, &bytes.Buffer{}, Terminals{Stdin: c.tty, Stderr: c.tty}, env(c.vars))
		if got := s.CanOpenBrowser(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
