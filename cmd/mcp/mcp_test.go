package mcp

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

type env struct {
	f           *cmdutil.Factory
	out, errOut *bytes.Buffer
	apiURL      string
}

// setup serves the emulator on 127.0.0.1 and points a Factory at it
// through the environment.
func setup(t *testing.T) *env {
	t.Helper()
	_, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey})
	ios, _, out, errOut := iostreams.Test()
	return &env{f: factory.New(ios, nil), out: out, errOut: errOut, apiURL: url}
}

// wait returns what done delivers, failing after a bound.
func wait(t *testing.T, done <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		t.Fatalf("%s did not end within 15s", what)
		return nil
	}
}

// Over stdio the server answers an MCP client with the emulator's data,
// keeps stdout for protocol frames, and ends cleanly when stdin closes.
func TestServeStdio(t *testing.T) {
	e := setup(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- serveRun(context.Background(), &ServeOptions{Seams: e.f.Seams(), CallClients: e.f.CallClients, Stdin: inR, Stdout: outW})
		outW.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	if !names["fibe_marquees_list"] || !names["fibe_playgrounds_create"] {
		t.Errorf("tools %v", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fibe_marquees_list"})
	if err != nil || res.IsError {
		t.Fatalf("fibe_marquees_list: %v %+v", err, res)
	}
	var text strings.Builder
	for _, part := range res.Content {
		if tc, ok := part.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if !strings.Contains(text.String(), "prod-eu") {
		t.Errorf("fibe_marquees_list: %s", text.String())
	}
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	if err := wait(t, done, "serve"); err != nil {
		t.Errorf("serve after stdin closed: %v", err)
	}
	if e.out.Len() != 0 {
		t.Errorf("the streams' stdout got %q", e.out)
	}
}

// Over HTTP the server prints where it listens (and the token only when it
// made one), refuses a request without the token, and stops when cancelled.
func TestServeHTTP(t *testing.T) {
	for _, given := range []string{"secret-token-1", ""} {
		e := setup(t)
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan string, 1)
		done := make(chan error, 1)
		go func() {
			done <- serveRun(ctx, &ServeOptions{Seams: e.f.Seams(), CallClients: e.f.CallClients, HTTP: "127.0.0.1:0", Token: given, Ready: func(u string) { ready <- u }})
		}()
		var url string
		select {
		case url = <-ready:
		case err := <-done:
			cancel()
			t.Fatalf("serve ended: %v", err)
		case <-time.After(15 * time.Second):
			cancel()
			t.Fatal("serve did not listen within 15s")
		}
		lines := strings.Split(strings.TrimSuffix(e.out.String(), "\n"), "\n")
		if lines[0] != "MCP server listening on "+url {
			t.Errorf("stdout %q", e.out)
		}
		if given != "" && (len(lines) != 1 || strings.Contains(e.out.String(), given)) {
			t.Errorf("a given token is printed: %q", e.out)
		}
		if given == "" && (len(lines) != 2 || !strings.HasPrefix(lines[1], "Token: ") || len(lines[1]) < len("Token: ")+16) {
			t.Errorf("a made token is not printed: %q", e.out)
		}
		resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("without a token: %d", resp.StatusCode)
		}
		cancel()
		if err := wait(t, done, "serve --http"); err != nil {
			t.Errorf("serve --http after cancel: %v", err)
		}
	}
}

// The flags are checked before anything runs; FIBE_MCP_TOKEN supplies the
// token of --http.
func TestServeFlags(t *testing.T) {
	e := setup(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--token", "x"}, "--token and --allow-remote need --http"},
		{[]string{"--allow-remote"}, "--token and --allow-remote need --http"},
		{[]string{"--http", "7879"}, `invalid --http "7879"`},
		{[]string{"--http", "203.0.113.9:7879"}, "is not a loopback address"},
	} {
		ran := false
		cmd := NewCmdServe(e.f, func(context.Context, *ServeOptions) error { ran = true; return nil })
		cmd.SetArgs(c.args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), c.want) || ran {
			t.Errorf("%q: %v (ran %v), want %q", c.args, err, ran, c.want)
		}
	}
	t.Setenv("FIBE_MCP_TOKEN", "from-env")
	var got *ServeOptions
	cmd := NewCmdServe(e.f, func(_ context.Context, o *ServeOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--http", "127.0.0.1:0"})
	if err := cmd.Execute(); err != nil || got == nil || got.Token != "from-env" {
		t.Errorf("FIBE_MCP_TOKEN: %v, %+v", err, got)
	}
}

// install writes the client's file once, naming this API; --print only
// prints; uninstall removes the entry.
func TestInstallAndUninstall(t *testing.T) {
	e := setup(t)
	project := t.TempDir()
	type newCmd func(*cmdutil.Factory, func(context.Context, *InstallOptions) error) *cobra.Command
	// capture runs the command line through cobra, then points the
	// options at the test's machine.
	capture := func(build newCmd, args ...string) *InstallOptions {
		t.Helper()
		var got *InstallOptions
		cmd := build(e.f, func(_ context.Context, o *InstallOptions) error { got = o; return nil })
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil || got == nil {
			t.Fatalf("%q: %v", args, err)
		}
		got.Env.Home, got.Env.Dir, got.Env.GOOS = t.TempDir(), project, "linux"
		got.Env.Getenv = func(string) string { return "" }
		got.Command = "/opt/fibe/bin/fibe"
		return got
	}
	install, uninstall := newCmd(NewCmdInstall), newCmd(NewCmdUninstall)
	file := filepath.Join(project, ".cursor", "mcp.json")

	if err := installRun(capture(install, "--client", "cursor", "--print")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.out.String(), "/opt/fibe/bin/fibe") || !strings.HasPrefix(e.errOut.String(), "Add this to "+file) {
		t.Errorf("--print: stdout %q stderr %q", e.out, e.errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("--print wrote %s", file)
	}

	e.out.Reset()
	if err := installRun(capture(install, "--client", "cursor")); err != nil {
		t.Fatal(err)
	}
	if e.out.String() != "Installed fibe for cursor in "+file+".\n" {
		t.Errorf("install: %q", e.out)
	}
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), e.apiURL) || !strings.Contains(string(data), `"serve"`) {
		t.Errorf("%s: %s (%v)", file, data, err)
	}
	e.out.Reset()
	if err := installRun(capture(install, "--client", "cursor")); err != nil {
		t.Fatal(err)
	}
	if e.out.String() != "Already installed for cursor in "+file+"; nothing changed.\n" {
		t.Errorf("second install: %q", e.out)
	}
	e.out.Reset()
	if err := uninstallRun(capture(uninstall, "--client", "cursor")); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.out.String(), "Removed fibe for cursor from "+file+".") {
		t.Errorf("uninstall: %q", e.out)
	}
	if data, _ := os.ReadFile(file); strings.Contains(string(data), "/opt/fibe/bin/fibe") {
		t.Errorf("still installed: %s", data)
	}
}
