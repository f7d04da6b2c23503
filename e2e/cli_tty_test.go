//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/fibegg/fibe/internal/localapi"
)

// runTTY runs fibe with stdin, stdout and stderr on a pseudo-terminal and
// returns everything the terminal received. feed, when set, is called with
// the terminal (and the path of its child end) once the output contains its
// trigger.
func (w *world) runTTY(env map[string]string, trigger string, feed func(tty io.Writer, ttyPath string), args ...string) (string, int) {
	w.t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		w.t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	_ = pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, fibeBin, args...)
	cmd.Env = w.environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	// Make the terminal the child's controlling terminal, so that typing
	// Ctrl-C on it sends SIGINT, as in a real shell.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		tty.Close()
		w.t.Fatal(err)
	}
	ttyPath := tty.Name()
	tty.Close() // the child holds its own copies

	var out bytes.Buffer
	buf := make([]byte, 4096)
	fed := false
	for {
		n, err := ptmx.Read(buf)
		out.Write(buf[:n])
		if feed != nil && !fed && strings.Contains(out.String(), trigger) {
			fed = true
			feed(ptmx, ttyPath)
		}
		if err != nil {
			break // EIO once the child has closed the terminal
		}
	}
	err = cmd.Wait()
	w.ttyEchoAfter = echoOn(w.t, ttyPath) // before the terminal goes away
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatal(err)
	}
	return out.String(), code
}

func TestTerminalSpinnerAndColor(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 5}) // long enough for a few spinner frames
	w.ok("pg", "create", "--name", "tty", "--playspec", "web")

	out, code := w.runTTY(nil, "", nil, "pg", "rollout", "tty", "--poll-interval", "100ms")
	if code != 0 {
		t.Fatalf("rollout on a terminal: exit %d\n%q", code, out)
	}
	// The terminal turns \n into \r\n, so look for the spinner's own erase sequence.
	if !strings.Contains(out, "\r\x1b[K") || !strings.Contains(out, "Rolling out tty") || !strings.Contains(out, "poll ") {
		t.Errorf("no spinner with status and poll count on the terminal:\n%q", out)
	}
	if !strings.Contains(out, "✓") || !strings.Contains(out, "Rolling out tty · done in ") {
		t.Errorf("no completion line after the spinner:\n%q", out)
	}
	if !strings.Contains(out, "\x1b[32mrunning") {
		t.Errorf("no color on the terminal:\n%q", out)
	}

	out, _ = w.runTTY(nil, "", nil, "pg", "list")
	if !strings.Contains(out, "\x1b[") {
		t.Errorf("pg list on a terminal has no color:\n%q", out)
	}
	// NO_COLOR (any value) and --no-color turn color off even on a terminal.
	for _, c := range []struct {
		env  map[string]string
		args []string
	}{
		{map[string]string{"NO_COLOR": "1"}, nil},
		{nil, []string{"--no-color"}},
	} {
		out, _ = w.runTTY(c.env, "", nil, append([]string{"pg", "list"}, c.args...)...)
		if strings.Contains(out, "\x1b[") {
			t.Errorf("color despite %v %v:\n%q", c.env, c.args, out)
		}
	}
	// No spinner in CI or with --json, even on a terminal.
	out, _ = w.runTTY(map[string]string{"CI": "true"}, "", nil, "pg", "restart", "tty", "--poll-interval", "100ms")
	if strings.Contains(out, "Restarting tty") {
		t.Errorf("spinner in CI:\n%q", out)
	}
	out, _ = w.runTTY(nil, "", nil, "pg", "restart", "tty", "--poll-interval", "100ms", "--json")
	if strings.Contains(out, "\r\x1b[K") || strings.Contains(out, "Restarting tty") {
		t.Errorf("spinner with --json:\n%q", out)
	}
}

func TestNotATerminal(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 5})
	w.ok("pg", "create", "--name", "pipe", "--playspec", "web")
	r := w.ok("pg", "rollout", "pipe", "--poll-interval", "100ms")
	for _, s := range []string{r.stdout, r.stderr} {
		if strings.ContainsAny(s, "\r\x1b") {
			t.Errorf("spinner or ANSI codes when not a terminal:\n%q", s)
		}
	}
	mustContain(t, "plain notice", r.stderr, "Accepted as req_")
	r = w.ok("pg", "list", "--quiet")
	if r.stderr != "" {
		t.Errorf("--quiet still printed notices: %q", r.stderr)
	}
}

func TestLoginPromptHidesKey(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	delete(w.env, "FIBE_API_KEY")
	out, code := w.runTTY(nil, "Paste your API key:", func(tty io.Writer, ttyPath string) {
		// The prompt is printed just before echo goes off: typing earlier
		// would be echoed by the terminal itself, not by fibe.
		waitEchoOff(t, ttyPath)
		_, _ = io.WriteString(tty, localapi.DefaultAPIKey+"\r")
	}, "auth", "login")
	if code != 0 {
		t.Fatalf("auth login on a terminal: exit %d\n%q", code, out)
	}
	if strings.Contains(out, localapi.DefaultAPIKey) {
		t.Errorf("the key was echoed:\n%q", out)
	}
	mustContain(t, "login output", out, "Logged in to")
}

// On a terminal, secrets set asks for the value without echo.
func TestSecretPromptHidesValue(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	const value = "tty-s3cret-value-93"
	out, code := w.runTTY(nil, "Value for DB_PASS:", func(tty io.Writer, ttyPath string) {
		waitEchoOff(t, ttyPath)
		_, _ = io.WriteString(tty, value+"\r")
	}, "secrets", "set", "DB_PASS")
	if code != 0 || strings.Contains(out, value) {
		t.Fatalf("secrets set on a terminal: exit %d, the value echoed: %v\n%q", code, strings.Contains(out, value), out)
	}
	mustContain(t, "set output", out, "Created secret DB_PASS")
	if got := w.ok("secrets", "get", "DB_PASS", "--reveal", "--jq", ".value").stdout; got != value+"\n" {
		t.Fatalf("the value typed: %q", got)
	}
}

// Ctrl-C at a prompt ends fibe with 130 and leaves the terminal echoing,
// the hidden prompt of auth login and the confirmation of a deletion alike.
func TestPromptInterrupted(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	delete(w.env, "FIBE_API_KEY")
	out, code := w.runTTY(nil, "Paste your API key:", func(tty io.Writer, ttyPath string) {
		waitEchoOff(t, ttyPath)
		_, _ = io.WriteString(tty, "\x03")
	}, "auth", "login")
	if code != 130 {
		t.Fatalf("Ctrl-C at the key prompt: exit %d\n%q", code, out)
	}
	mustContain(t, "interrupted login", out, "CANCELLED")
	if !w.ttyEchoAfter {
		t.Error("the terminal was left without echo")
	}

	w.env["FIBE_API_KEY"] = w.key
	w.ok("pg", "create", "--name", "keep", "--playspec", "web")
	out, code = w.runTTY(nil, "[y/N]", func(tty io.Writer, _ string) {
		_, _ = io.WriteString(tty, "\x03")
	}, "pg", "delete", "keep")
	if code != 130 {
		t.Fatalf("Ctrl-C at the delete prompt: exit %d\n%q", code, out)
	}
	out, code = w.runTTY(nil, "[y/N]", func(tty io.Writer, _ string) {
		_, _ = io.WriteString(tty, "n\r")
	}, "pg", "delete", "keep")
	if code == 0 {
		t.Fatalf("declining still deleted: %q", out)
	}
	w.ok("pg", "get", "keep")
	out, code = w.runTTY(nil, "[y/N]", func(tty io.Writer, _ string) {
		_, _ = io.WriteString(tty, "y\r")
	}, "pg", "delete", "keep")
	if code != 0 || !strings.Contains(out, "Deleted playground keep") {
		t.Fatalf("confirmed delete: exit %d\n%q", code, out)
	}
}
