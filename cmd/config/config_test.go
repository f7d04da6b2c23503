package configcmd_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/cmd"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// isolate gives the test its own config directory and no FIBE_* settings.
func isolate(t *testing.T) {
	t.Helper()
	cmdtest.Isolate(t, nil)
}

// fibe runs one command line in process, as the binary would, and returns
// stdout, stderr and the error.
func fibe(args ...string) (string, string, error) {
	ios, _, out, errOut := iostreams.Test()
	root := cmd.NewCmdRoot(factory.New(ios, args))
	root.SetArgs(args)
	err := cmd.Execute(context.Background(), root)
	return out.String(), errOut.String(), err
}

func mustRun(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, errOut, err := fibe(args...)
	if err != nil {
		t.Fatalf("fibe %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out, errOut
}

// set writes the file (saying where on stderr), get reads the value back,
// an empty value removes it again.
func TestSetGetRemove(t *testing.T) {
	isolate(t)
	out, errOut := mustRun(t, "config", "set", "timeout", "45s")
	if out != "" || !strings.HasPrefix(errOut, "Set timeout in ") || !strings.Contains(errOut, "(profile default)") {
		t.Errorf("set: stdout %q stderr %q", out, errOut)
	}
	if out, _ := mustRun(t, "config", "get", "timeout"); out != "45s\n" {
		t.Errorf("get after set: %q", out)
	}
	mustRun(t, "config", "set", "timeout", "")
	if out, _ := mustRun(t, "config", "get", "timeout"); out != "30s\n" {
		t.Errorf("get after removing: %q, want the default", out)
	}
}

// A flag beats the environment, which beats the file; get --json and list
// --json say where the value comes from.
func TestPrecedenceAndSources(t *testing.T) {
	isolate(t)
	mustRun(t, "config", "set", "timeout", "45s")
	t.Setenv("FIBE_TIMEOUT", "1m")
	if out, _ := mustRun(t, "config", "get", "timeout"); out != "1m0s\n" && out != "1m\n" {
		t.Errorf("env over file: %q", out)
	}
	out, _ := mustRun(t, "--timeout", "2m", "config", "get", "timeout", "--json")
	var v struct{ Key, Value, Source string }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Key != "timeout" || !strings.HasPrefix(v.Value, "2m") || !strings.Contains(v.Source, "flag") {
		t.Errorf("flag over env: %s (%v)", out, err)
	}

	out, _ = mustRun(t, "config", "list", "--json")
	var vs []struct{ Key, Value, Source string }
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("list --json %s: %v", out, err)
	}
	seen := map[string]string{}
	for _, v := range vs {
		seen[v.Key] = v.Source
	}
	if !strings.Contains(seen["timeout"], "FIBE_TIMEOUT") || seen["api_url"] == "" {
		t.Errorf("list sources %v", seen)
	}
	out, errOut := mustRun(t, "config", "list")
	if !strings.HasPrefix(out, "KEY") || !strings.Contains(out, "timeout") || !strings.HasPrefix(errOut, "Profile default") {
		t.Errorf("list: stdout %q stderr %q", out, errOut)
	}
}

// With --profile, set writes into that profile only.
func TestProfiles(t *testing.T) {
	isolate(t)
	mustRun(t, "--profile", "staging", "config", "set", "api_url", "http://127.0.0.1:7878")
	if out, _ := mustRun(t, "--profile", "staging", "config", "get", "api_url"); out != "http://127.0.0.1:7878\n" {
		t.Errorf("staging api_url %q", out)
	}
	if out, _ := mustRun(t, "config", "get", "api_url"); out == "http://127.0.0.1:7878\n" {
		t.Errorf("the default profile got staging's api_url")
	}
}

// Bad keys and values are usage errors, and nothing is written.
func TestBadInput(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{
		{"config", "set", "timeout", "soon"},
		{"config", "set", "colour", "on"},
		{"config", "get", "colour"},
		{"config", "set", "timeout"},
	} {
		out, _, err := fibe(args...)
		if output.ExitCode(err) != output.ExitUsage || out != "" {
			t.Errorf("%q: %v (exit %d), stdout %q", args, err, output.ExitCode(err), out)
		}
		if err != nil && (strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "goroutine")) {
			t.Errorf("%q: not one line: %q", args, err)
		}
	}
	if out, _ := mustRun(t, "config", "get", "timeout"); out != "30s\n" {
		t.Errorf("a refused set changed timeout: %q", out)
	}
}
