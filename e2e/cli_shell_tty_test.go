//go:build linux || darwin

package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// ptyShell is `fibe pg shell` running on a pseudo-terminal, driven by a
// test that types and reads what the terminal shows.
type ptyShell struct {
	t       *testing.T
	ptmx    *os.File
	ttyPath string
	cmd     *exec.Cmd
	mu      sync.Mutex
	out     bytes.Buffer
	mark    int // where the next expect starts looking
	done    chan struct{}
	code    int
}

func (w *world) startShellTTY(args ...string) *ptyShell {
	w.t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		w.t.Skipf("no pseudo-terminal: %v", err)
	}
	_ = pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 100})
	cmd := exec.Command(fibeBin, args...)
	cmd.Env = w.environ()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		tty.Close()
		ptmx.Close()
		w.t.Fatal(err)
	}
	p := &ptyShell{t: w.t, ptmx: ptmx, ttyPath: tty.Name(), cmd: cmd, done: make(chan struct{})}
	tty.Close() // the child holds its own copies
	reading := make(chan struct{})
	go func() {
		defer close(reading)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return // EIO once the child has closed the terminal
			}
		}
	}()
	go func() {
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			p.code = ee.ExitCode()
		}
		close(p.done)
	}()
	w.t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = cmd.Process.Kill()
			<-p.done
		}
		ptmx.Close()
		<-reading
	})
	return p
}

func (p *ptyShell) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// expect waits until the terminal shows want after the previous match
// and returns what it showed up to it.
func (p *ptyShell) expect(want string) string {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		out := p.output()
		if i := strings.Index(out[p.mark:], want); i >= 0 {
			seen := out[p.mark : p.mark+i+len(want)]
			p.mark += i + len(want)
			return seen
		}
		select {
		case <-p.done:
			if strings.Contains(p.output()[p.mark:], want) {
				continue
			}
			p.t.Fatalf("fibe exited (%d) before showing %q:\n%q", p.code, want, p.output()[p.mark:])
		case <-time.After(5 * time.Millisecond):
		}
	}
	p.t.Fatalf("timed out waiting for %q:\n%q", want, p.output()[p.mark:])
	return ""
}

func (p *ptyShell) typeIn(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.ptmx, s); err != nil {
		p.t.Fatalf("typing: %v", err)
	}
}

// exit waits for fibe to end and reports its exit code and whether the
// terminal is back in its normal mode (echo and line editing on).
func (p *ptyShell) exit() (code int, restored bool) {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		p.t.Fatalf("fibe did not exit:\n%q", p.output())
	}
	return p.code, cooked(p.t, p.ttyPath)
}

// cooked reports whether the terminal at path echoes and edits lines, as
// it did before fibe put it in raw mode.
func cooked(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatalf("termios of %s: %v", path, err)
	}
	return tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ICANON != 0
}

// Typing on a real terminal: keys go to the remote shell, which echoes
// them; Ctrl-C goes to the remote shell too, not to fibe; the remote exit
// code is fibe's; the terminal is restored.
func TestShellOnATerminal(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "tty")
	p := w.startShellTTY("pg", "shell", "tty")
	p.expect("web:/app$ ")
	waitEchoOff(t, p.ttyPath) // raw mode: the remote shell echoes, not the terminal
	p.typeIn("echo hi\r")
	if seen := p.expect("web:/app$ "); !strings.Contains(seen, "echo hi\r\nhi\r\n") {
		t.Fatalf("echo hi showed %q", seen)
	}
	p.typeIn("env\r")
	if seen := p.expect("web:/app$ "); !strings.Contains(seen, "COLUMNS=100") || !strings.Contains(seen, "LINES=30") {
		t.Fatalf("the window size did not reach the shell: %q", seen)
	}
	_ = pty.Setsize(p.ptmx, &pty.Winsize{Rows: 50, Cols: 140}) // SIGWINCH
	waitFor(t, "the resize", func() bool {
		p.typeIn("env\r")
		return strings.Contains(p.expect("web:/app$ "), "COLUMNS=140")
	})
	p.typeIn("sleep-forever\x03")
	p.expect("^C")
	p.typeIn("exit 4\r")
	code, restored := p.exit()
	if code != 4 || !restored {
		t.Fatalf("exit %d (want 4), terminal restored %v\n%q", code, restored, p.output())
	}
}

// Ctrl-] then q leaves; so does a second Ctrl-]; SIGINT to fibe itself
// exits 130. The terminal is restored each time.
func TestShellLeavingRestoresTheTerminal(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "ttyq")
	for _, keys := range []string{"\x1dq", "\x1d\x1d"} {
		p := w.startShellTTY("pg", "shell", "ttyq")
		p.expect("$ ")
		p.typeIn(keys)
		if code, restored := p.exit(); code != 0 || !restored {
			t.Fatalf("%q: exit %d, terminal restored %v\n%q", keys, code, restored, p.output())
		}
	}
	p := w.startShellTTY("pg", "shell", "ttyq")
	p.expect("$ ")
	waitEchoOff(t, p.ttyPath)
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	if code, restored := p.exit(); code != 130 || !restored {
		t.Fatalf("SIGINT: exit %d, terminal restored %v\n%q", code, restored, p.output())
	}
}

// A burst of 100 expiries renews the session exactly once; two expiries
// separated by a confirmed subscription renew it twice; a drop renews it
// too. Each renewal says so on the terminal.
func TestShellRenewalsOnATerminal(t *testing.T) {
	t.Parallel()
	w := runningPlayground(t, "ttyr")
	// The drop fault stays on until the test sees it bite: reconnects in
	// that window are dropped too, each a retry of the budget.
	w.env["FIBE_MAX_RETRIES"] = "10"
	p := w.startShellTTY("pg", "shell", "ttyr")
	p.expect("$ ")
	cableURLs := func() int { return w.server.Stats().Requests["GET /api/cable_url"]["200"] }
	base := cableURLs()

	if err := w.server.SetChaos("cable-expire-burst=100"); err != nil {
		t.Fatal(err)
	}
	p.typeIn("x")
	p.expect("— session renewed")
	p.expect("$ ")
	if n := cableURLs() - base; n != 1 {
		t.Fatalf("%d reconnects for a burst of 100 expiries, want 1", n)
	}
	// The emulator stops writing the burst when the renewed client closes
	// the old socket, so how many of the 100 went out depends on timing;
	// more than one did, or the burst proved nothing.
	if st := w.server.CableStats(); st.Expiries < 2 {
		t.Fatalf("%d expiries sent, want a burst", st.Expiries)
	}

	for i := 0; i < 2; i++ {
		if err := w.server.SetChaos("cable-expire=once"); err != nil {
			t.Fatal(err)
		}
		p.typeIn("y")
		p.expect("— session renewed")
		p.expect("$ ")
	}
	if n := cableURLs() - base; n != 3 {
		t.Fatalf("%d reconnects after two more expiries, want 3", n)
	}

	if err := w.server.SetChaos("cable-drop=1"); err != nil {
		t.Fatal(err)
	}
	p.typeIn("z")
	waitFor(t, "the drop", func() bool { return w.server.CableStats().Drops >= 1 })
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	p.expect("— session renewed")
	p.expect("$ ")
	p.typeIn("echo after\r")
	p.expect("after\r\n")
	p.typeIn("exit\r")
	if code, restored := p.exit(); code != 0 || !restored {
		t.Fatalf("exit %d, terminal restored %v", code, restored)
	}
}

// waitFor polls cond until it holds or the bound passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
