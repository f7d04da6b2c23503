package playgrounds

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// runningPlayground creates name with an override and waits for it to run.
func runningPlayground(t *testing.T, f *cmdutil.Factory, name string) {
	t.Helper()
	ctx := context.Background()
	if err := cmdutil.CreateRun(ctx, createOpts(f, map[string]any{"name": name, "playspec": "web",
		"env": []string{"APP_MODE=demo", "FIBE_PLAYGROUND=spoofed"}})); err != nil {
		t.Fatal(err)
	}
	c, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Playgrounds.Wait(ctx, name, "running", client.WaitOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestEnvRun(t *testing.T) {
	f, out, _, _ := setup(t)
	runningPlayground(t, f, "envy")
	out.Reset()
	if err := envRun(context.Background(), &EnvOptions{Seams: f.Seams(), Ref: "envy"}); err != nil {
		t.Fatal(err)
	}
	lines := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		fields := strings.Fields(l)
		lines[fields[0]] = fields
	}
	if got := lines["APP_MODE"]; len(got) != 3 || got[1] != "demo" || got[2] != "override" {
		t.Errorf("APP_MODE row %q in:\n%s", got, out)
	}
	// A system key wins over an override of the same name, and is marked.
	if got := lines["FIBE_PLAYGROUND"]; len(got) != 3 || got[1] != "envy" || got[2] != "system" {
		t.Errorf("FIBE_PLAYGROUND row %q in:\n%s", got, out)
	}
	out.Reset()
	f.IOStreams.SetJSON(true)
	if err := envRun(context.Background(), &EnvOptions{Seams: f.Seams(), Ref: "envy"}); err != nil {
		t.Fatal(err)
	}
	var env client.EnvMetadata
	if err := json.Unmarshal(out.Bytes(), &env); err != nil || env.Merged["APP_MODE"] != "demo" || len(env.SystemKeys) == 0 || env.Metadata == nil {
		t.Errorf("--json: %s (%v)", out, err)
	}
}

func TestComposeRun(t *testing.T) {
	f, out, _, _ := setup(t)
	runningPlayground(t, f, "composed")
	out.Reset()
	if err := composeRun(context.Background(), &ComposeOptions{Seams: f.Seams(), Ref: "composed"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"services:\n", "  web:\n", "  worker:\n", "  db:\n", "APP_MODE: demo"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("compose lacks %q:\n%s", want, out)
		}
	}
	out.Reset()
	f.IOStreams.SetJSON(true)
	if err := composeRun(context.Background(), &ComposeOptions{Seams: f.Seams(), Ref: "composed"}); err != nil {
		t.Fatal(err)
	}
	var cmp client.PlaygroundCompose
	if err := json.Unmarshal(out.Bytes(), &cmp); err != nil || cmp.ComposeProject == "" || !strings.Contains(cmp.ComposeYAML, "services:") {
		t.Errorf("--json: %s (%v)", out, err)
	}
}

func TestDebugRun(t *testing.T) {
	f, out, _, srv := setup(t)
	runningPlayground(t, f, "buggy")
	ctx := context.Background()
	out.Reset()
	if err := debugRun(ctx, &DebugOptions{Seams: f.Seams(), Ref: "buggy"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Playground", "buggy", "Startup", "running", "Last log lines:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("debug lacks %q:\n%s", want, out)
		}
	}
	// --refresh is a GET answered 202: waited on, the result printed.
	out.Reset()
	f.IOStreams.SetJSON(true)
	before := srv.Stats().Requests["GET /api/async_requests/{id}"]["200"]
	if err := debugRun(ctx, &DebugOptions{Seams: f.Seams(), Ref: "buggy", Refresh: true, Mode: "full", Service: "web", LogsTail: 5}); err != nil {
		t.Fatal(err)
	}
	var report struct {
		Playground struct{ Name string }
		Mode       string
		Refreshed  bool
		Startup    struct {
			LogTail []string `json:"log_tail"`
		}
		Services []struct{ Name string }
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil || report.Playground.Name != "buggy" || report.Mode != "full" ||
		!report.Refreshed || len(report.Startup.LogTail) != 5 || len(report.Services) != 1 || report.Services[0].Name != "web" {
		t.Errorf("--refresh --json: %s (%v)", out, err)
	}
	if srv.Stats().Requests["GET /api/async_requests/{id}"]["200"] == before {
		t.Error("--refresh did not poll the operation")
	}
	// --no-wait prints the handle.
	out.Reset()
	if err := debugRun(ctx, &DebugOptions{Seams: f.Seams(), Ref: "buggy", Refresh: true, Wait: cmdutil.WaitFlags{NoWait: true}}); err != nil {
		t.Fatal(err)
	}
	var h client.AsyncHandle
	if err := json.Unmarshal(out.Bytes(), &h); err != nil || h.RequestID == "" {
		t.Errorf("--no-wait: %s (%v)", out, err)
	}
}

// Bad flags are usage errors and nothing is sent.
func TestDebugFlagsValidated(t *testing.T) {
	f, _, _, srv := setup(t)
	for _, args := range [][]string{
		{"x", "--mode", "verbose"},
		{"x", "--logs-tail", "-1"},
		{"x", "--no-wait"},
	} {
		cmd := NewCmdDebug(f, nil)
		cmd.SetArgs(args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		if err := cmd.Execute(); output.ExitCode(err) != output.ExitUsage {
			t.Errorf("%v: %v", args, err)
		}
	}
	if n := len(srv.Stats().Requests); n != 0 {
		t.Errorf("%d routes were called: %v", n, srv.Stats().Requests)
	}
}
