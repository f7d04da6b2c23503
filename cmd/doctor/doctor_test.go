package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// The clock check passes within MaxSkew of the server's Date (whole
// seconds) and fails beyond it, saying which way, with a fix.
func TestCheckClock(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	took := 200 * time.Millisecond
	for _, c := range []struct {
		server time.Time
		status string
		want   string
	}{
		{start, StatusOK, "within 1s"},
		{start.Add(-4 * time.Second), StatusOK, "within 4s"},
		{start.Add(-90 * time.Second), StatusFail, "1m30s ahead of the server"},
		{start.Add(2 * time.Minute), StatusFail, "2m0s behind the server"},
	} {
		got := checkClock(&client.Response{Date: c.server}, start, took)
		if got.Status != c.status || !strings.Contains(got.Detail, c.want) || (c.status == StatusFail) != (got.Fix != "") {
			t.Errorf("server %s: %+v, want %s %q", c.server.Sub(start), got, c.status, c.want)
		}
	}
	if got := checkClock(&client.Response{}, start, took); got.Status != StatusSkip {
		t.Errorf("no Date: %+v", got)
	}
}

// Completion is found where the shell loads it from, or in its rc file;
// missing, the fix is the shell's own install line; another shell is not
// checked.
func TestCheckCompletion(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	fpath := filepath.Join(home, "zfuncs")
	env := map[string]string{"SHELL": "/usr/bin/zsh", "FPATH": fpath, "XDG_DATA_HOME": filepath.Join(home, "data")}
	opts := &Options{Env: func(k string) string { return env[k] }}
	if c := checkCompletion(opts); c.Status != StatusFail || !strings.Contains(c.Fix, "fibe completion zsh") {
		if !strings.HasPrefix(c.Detail, "zsh: /usr/") && !strings.HasPrefix(c.Detail, "zsh: /opt/") { // installed on this machine
			t.Errorf("zsh without completion: %+v", c)
		}
	}
	if err := os.MkdirAll(fpath, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fpath, "_fibe"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if c := checkCompletion(opts); c.Status != StatusOK {
		t.Errorf("zsh with _fibe in $FPATH: %+v", c)
	}
	env["SHELL"] = "/bin/bash"
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("source <(fibe completion bash)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := checkCompletion(opts); c.Status != StatusOK {
		t.Errorf("bash sourcing it from .bashrc: %+v", c)
	}
	env["SHELL"] = "/bin/tcsh"
	if c := checkCompletion(opts); c.Status != StatusSkip {
		t.Errorf("tcsh: %+v", c)
	}
}
