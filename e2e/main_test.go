package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// fibeBin is the binary under test, built once for the whole run.
var fibeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fibe-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fibeBin = filepath.Join(dir, "fibe")
	args := []string{"build", "-o", fibeBin}
	if raceEnabled {
		args = append(args, "-race")
	}
	args = append(args, "-ldflags", "-X github.com/fibegg/fibe/internal/build.Version=9.9.9-test -X github.com/fibegg/fibe/internal/build.Commit=abc1234", "github.com/fibegg/fibe")
	build := exec.Command("go", args...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building fibe:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// world is one isolated user: their own HOME and XDG directories, and
// optionally an emulator served on 127.0.0.1.
type world struct {
	t      *testing.T
	home   string
	url    string
	key    string
	server *localapi.Server
	env    map[string]string

	ttyEchoAfter bool // whether the terminal of the last runTTY echoed when fibe exited
}

// newWorld makes an isolated user with an emulator configured by cfg
// (Speed defaults to 50 so simulated operations take milliseconds).
func newWorld(t *testing.T, cfg localapi.Config) *world {
	t.Helper()
	w := newUser(t)
	if cfg.Speed == 0 {
		cfg.Speed = 50
	}
	srv, err := localapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.Close() // release delayed requests first, so Close does not wait on them
		ts.Close()
	})
	w.server, w.url = srv, ts.URL
	w.key = cfg.APIKey
	if w.key == "" {
		w.key = localapi.DefaultAPIKey
	}
	w.env["FIBE_API_URL"] = w.url
	w.env["FIBE_API_KEY"] = w.key
	// Poll often: simulated operations finish in milliseconds.
	w.env["FIBE_POLL_INTERVAL"] = "20ms"
	return w
}

// newUser makes an isolated user without a server.
func newUser(t *testing.T) *world {
	t.Helper()
	home := t.TempDir()
	return &world{t: t, home: home, env: map[string]string{}}
}

func (w *world) environ() []string {
	env := []string{
		"PATH=" + pathEnv(),
		"HOME=" + w.home,
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, "config"),
		"XDG_STATE_HOME=" + filepath.Join(w.home, "state"),
		"FIBE_NO_KEYRING=1",
		"GORACE=halt_on_error=1 atexit_sleep_ms=0",
		"TERM=xterm-256color",
	}
	for k, v := range w.env {
		env = append(env, k+"="+v) // later entries win, PATH included
	}
	return env
}

func pathEnv() string { return os.Getenv("PATH") }

type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// run runs fibe to completion (30 s at most) with stdin empty.
func (w *world) run(args ...string) result {
	w.t.Helper()
	return w.runIn("", args...)
}

// runIn runs fibe with the given stdin.
func (w *world) runIn(stdin string, args ...string) result {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, fibeBin, args...)
	cmd.Env = w.environ()
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			w.t.Fatalf("fibe %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		w.t.Fatalf("fibe %s: timed out\n%s", strings.Join(args, " "), errOut.String())
	}
	return result{stdout: out.String(), stderr: errOut.String(), code: code}
}

// ok runs fibe and fails the test unless it exits 0.
func (w *world) ok(args ...string) result {
	w.t.Helper()
	r := w.run(args...)
	if r.code != 0 {
		w.t.Fatalf("fibe %s: %s", strings.Join(args, " "), r)
	}
	return r
}

// jsonOf runs fibe with --json and decodes stdout, which must be exactly one document.
func (w *world) jsonOf(v any, args ...string) result {
	w.t.Helper()
	r := w.ok(append(args, "--json")...)
	if err := decodeOne(r.stdout, v); err != nil {
		w.t.Fatalf("fibe %s --json: %v\n%s", strings.Join(args, " "), err, r)
	}
	return r
}

// decodeOne decodes s into v and insists that nothing follows.
func decodeOne(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	var extra json.RawMessage
	if err := dec.Decode(&extra); err != io.EOF {
		return fmt.Errorf("more than one JSON document (next: %.40s)", extra)
	}
	return nil
}

// proc is a fibe process running in the background.
type proc struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	stdout bytes.Buffer
	stderr bytes.Buffer
	done   chan struct{}
	code   int
}

// start starts fibe in the background; the test must end it.
func (w *world) start(args ...string) *proc {
	w.t.Helper()
	cmd := exec.Command(fibeBin, args...)
	cmd.Env = w.environ()
	p := &proc{cmd: cmd, done: make(chan struct{})}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	var copies sync.WaitGroup
	copies.Add(2)
	pump := func(r io.Reader, buf *bytes.Buffer) {
		defer copies.Done()
		sc := bufio.NewReader(r)
		chunk := make([]byte, 4096)
		for {
			n, err := sc.Read(chunk)
			p.mu.Lock()
			buf.Write(chunk[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}
	go pump(stdout, &p.stdout)
	go pump(stderr, &p.stderr)
	go func() {
		copies.Wait()
		err := cmd.Wait()
		p.code = 0
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
	})
	return p
}

func (p *proc) output() (string, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stdout.String(), p.stderr.String()
}

// waitFor waits until cond holds for the process's output, failing after limit.
func (p *proc) waitFor(t *testing.T, limit time.Duration, what string, cond func(stdout, stderr string) bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if cond(p.output()) {
			return
		}
		select {
		case <-p.done:
			if cond(p.output()) {
				return
			}
			out, errOut := p.output()
			t.Fatalf("process ended (exit %d) before %s\nstdout:\n%s\nstderr:\n%s", p.code, what, out, errOut)
		case <-time.After(10 * time.Millisecond):
		}
	}
	out, errOut := p.output()
	t.Fatalf("timed out waiting for %s\nstdout:\n%s\nstderr:\n%s", what, out, errOut)
}

// wait waits for the process to exit and returns its result.
func (p *proc) wait(t *testing.T, limit time.Duration) result {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		_ = p.cmd.Process.Kill()
		<-p.done
		out, errOut := p.output()
		t.Fatalf("process did not exit within %s\nstdout:\n%s\nstderr:\n%s", limit, out, errOut)
	}
	out, errOut := p.output()
	return result{stdout: out, stderr: errOut, code: p.code}
}

// mustContain fails unless s contains every want.
func mustContain(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(s, want) {
			t.Errorf("%s does not contain %q:\n%s", what, want, s)
		}
	}
}
