package completion_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/cmd"
	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/completion"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// isolate points the configuration at a temporary home, with apiURL.
func isolate(t *testing.T, apiURL string) {
	t.Helper()
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": apiURL, "FIBE_API_KEY": localapi.DefaultAPIKey})
}

func root(t *testing.T) (*cmdutil.Factory, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	f := factory.New(ios, nil)
	return f, out, errOut
}

// Every shell gets a script for the whole tree, on stdout or, with
// --generate-dir, in its file; the two are the same.
func TestScripts(t *testing.T) {
	isolate(t, "http://127.0.0.1:1")
	f, out, _ := root(t)
	tree := cmd.NewCmdRoot(f)
	dir := t.TempDir()
	for _, s := range completion.Shells {
		out.Reset()
		tree.SetArgs([]string{"completion", s.Name})
		if err := cmd.Execute(context.Background(), tree); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if !strings.Contains(out.String(), "fibe") || out.Len() < 1000 {
			t.Errorf("%s: script of %d bytes:\n%.300s", s.Name, out.Len(), out)
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := filepath.Join(t.TempDir(), "completions")
	out.Reset()
	tree.SetArgs([]string{"completion", "--generate-dir", gen})
	if err := cmd.Execute(context.Background(), tree); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("--generate-dir printed %q", out)
	}
	for _, s := range completion.Shells {
		want, _ := os.ReadFile(filepath.Join(dir, s.File))
		got, err := os.ReadFile(filepath.Join(gen, s.File))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: generated file differs from stdout (%v)", s.File, err)
		}
	}
}

// A script is not JSON, and an unknown shell is named: usage errors with
// nothing on stdout.
func TestBadRequestsAreUsageErrors(t *testing.T) {
	isolate(t, "http://127.0.0.1:1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "bash", "--json"}, "--json and --jq do not apply"},
		{[]string{"completion", "tcsh"}, `unsupported shell "tcsh"`},
		{[]string{"completion"}, "missing argument bash|zsh|fish|powershell"},
		{[]string{"completion", "bash", "--generate-dir", "x"}, "unexpected argument"},
	} {
		f, out, _ := root(t)
		tree := cmd.NewCmdRoot(f)
		tree.SetArgs(c.args)
		err := cmd.Execute(context.Background(), tree)
		if output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v (exit %d), want %q", c.args, err, output.ExitCode(err), c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%q: stdout %q", c.args, out)
		}
	}
}

// Names complete from the API, with their status or host as description.
func TestNamesCompleteFromTheAPI(t *testing.T) {
	srv, err := localapi.New(localapi.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	isolate(t, ts.URL)
	for _, c := range []struct {
		args []string
		want []string
		not  string
	}{
		{[]string{"__complete", "mq", "get", "pro"}, []string{"prod-eu\t"}, "local\t"},
		{[]string{"__complete", "mq", "update", ""}, []string{"local\t", "prod-eu\t", "unpaid\t"}, ""},
		{[]string{"__complete", "pg", "create", "--playspec", "b"}, []string{"broken\t"}, "web\t"},
		{[]string{"__complete", "pg", "list", "--marquee", ""}, []string{"local\t", "prod-eu\t"}, ""},
	} {
		ios, _, _, _ := iostreams.Test()
		f := factory.New(ios, c.args) // a completion request registers the flags' completions
		tree := cmd.NewCmdRoot(f)
		var got bytes.Buffer
		tree.SetOut(&got)
		tree.SetArgs(c.args)
		if err := cmd.Execute(context.Background(), tree); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		for _, w := range c.want {
			if !strings.Contains(got.String(), w) {
				t.Errorf("%q: %q not in\n%s", c.args, w, got.String())
			}
		}
		if c.not != "" && strings.Contains(got.String(), c.not) {
			t.Errorf("%q: %q should not complete:\n%s", c.args, c.not, got.String())
		}
	}
}
