package iostreams

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/mattn/go-isatty"
)

// IOStreams are the three standard streams plus what is known about them.
// Every decision about color, spinners and prompts is made here.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool

	// lookupEnv is injectable so tests need not touch the process environment.
	lookupEnv func(string) (string, bool)

	noColor bool // --no-color
	json    bool // --json or --jq
	quiet   bool // --quiet
	jq      *JQ  // --jq
	yaml    bool // --output yaml: documents as YAML, streams still NDJSON

	mu       sync.Mutex // guards progress
	progress *progress
}

// Terminals says which of the three streams is a terminal.
type Terminals struct{ Stdin, Stdout, Stderr bool }

// New returns IOStreams on in, out and errOut, which are terminals as tty
// says, reading the environment (NO_COLOR, TERM, CI, ...) through
// lookupEnv; a nil lookupEnv is an empty environment.
func New(in io.Reader, out, errOut io.Writer, tty Terminals, lookupEnv func(string) (string, bool)) *IOStreams {
	if lookupEnv == nil {
		lookupEnv = func(string) (string, bool) { return "", false }
	}
	return &IOStreams{In: in, Out: out, ErrOut: errOut,
		stdinTTY: tty.Stdin, stdoutTTY: tty.Stdout, stderrTTY: tty.Stderr, lookupEnv: lookupEnv}
}

// System returns IOStreams for the process's real stdin, stdout and stderr.
func System() *IOStreams {
	tty := Terminals{Stdin: isTerminal(os.Stdin), Stdout: isTerminal(os.Stdout), Stderr: isTerminal(os.Stderr)}
	return New(os.Stdin, os.Stdout, os.Stderr, tty, os.LookupEnv)
}

// Test returns IOStreams backed by buffers, none of them a terminal, with an
// empty environment.
func Test() (ios *IOStreams, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return New(in, out, errOut, Terminals{}, nil), in, out, errOut
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetNoColor records --no-color.
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// SetJSON records --json (or --jq, which implies it).
func (s *IOStreams) SetJSON(v bool) { s.json = v }

// SetQuiet records --quiet.
func (s *IOStreams) SetQuiet(v bool) { s.quiet = v }

// JSON reports whether machine output was asked for.
func (s *IOStreams) JSON() bool { return s.json }

// Quiet reports whether notices are suppressed.
func (s *IOStreams) Quiet() bool { return s.quiet }

func (s *IOStreams) env(name string) string {
	v, _ := s.lookup(name)
	return v
}

func (s *IOStreams) lookup(name string) (string, bool) {
	if s.lookupEnv == nil {
		return "", false
	}
	return s.lookupEnv(name)
}

// colorAllowed is the rule for color on a stream: only on a terminal, never
// with NO_COLOR (any value, see no-color.org), --no-color or TERM=dumb.
func (s *IOStreams) colorAllowed(tty bool) bool {
	if !tty || s.noColor {
		return false
	}
	if _, set := s.lookup("NO_COLOR"); set {
		return false
	}
	return s.env("TERM") != "dumb"
}

// ColorEnabled reports whether stdout may carry color.
func (s *IOStreams) ColorEnabled() bool { return s.colorAllowed(s.stdoutTTY) }

// ErrColorEnabled reports whether stderr may carry color.
func (s *IOStreams) ErrColorEnabled() bool { return s.colorAllowed(s.stderrTTY) }

// ColorScheme colors text bound for stdout.
func (s *IOStreams) ColorScheme() *ColorScheme { return newColorScheme(s.ColorEnabled()) }

// ErrColorScheme colors text bound for stderr.
func (s *IOStreams) ErrColorScheme() *ColorScheme { return newColorScheme(s.ErrColorEnabled()) }

// InCI reports whether a CI system is driving the process.
func (s *IOStreams) InCI() bool {
	for _, name := range []string{"CI", "BUILD_NUMBER", "RUN_ID"} {
		if v := s.env(name); v != "" && v != "false" && v != "0" {
			return true
		}
	}
	return false
}

// SpinnerAllowed reports whether a spinner may be drawn on stderr: only on a
// terminal, never in CI, with --json/--jq or with --quiet.
func (s *IOStreams) SpinnerAllowed() bool {
	return s.stderrTTY && !s.json && !s.quiet && !s.InCI() && s.env("TERM") != "dumb"
}

// CanPrompt reports whether the user can be asked something: stdin and
// stderr must both be terminals.
func (s *IOStreams) CanPrompt() bool {
	return s.stdinTTY && s.stderrTTY
}

// ShowNotices reports whether informational lines may go to stderr.
func (s *IOStreams) ShowNotices() bool { return !s.quiet }

// CanOpenBrowser reports whether opening a web page would reach the user:
// an interactive session, not CI, and a display (on Linux and the BSDs,
// DISPLAY or WAYLAND_DISPLAY; over SSH, only a forwarded DISPLAY).
func (s *IOStreams) CanOpenBrowser() bool {
	if !s.CanPrompt() || s.InCI() {
		return false
	}
	display := s.env("DISPLAY") != "" || s.env("WAYLAND_DISPLAY") != ""
	if s.env("SSH_CONNECTION") != "" || s.env("SSH_TTY") != "" {
		return s.env("DISPLAY") != ""
	}
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return display
}
