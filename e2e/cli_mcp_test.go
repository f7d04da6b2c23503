package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/testio"
)

// mcpStdio launches `fibe mcp serve` as MCP clients do, over stdio.
func mcpStdio(t *testing.T, w *world, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(fibeBin, append(args, "mcp", "serve")...)
	cmd.Env = w.environ()
	stderr := &testio.Buffer{}
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, cmd
}

func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Over stdio, results are exactly what --json prints, errors are the
// CLI's error document, and closing stdin ends the server with exit 0.
func TestMCPStdioSpeaksTheCLIsJSON(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	cs, cmd := mcpStdio(t, w)

	res := callTool(t, cs, "fibe_playgrounds_create", map[string]any{"name": "agent-1", "playspec": "web", "marquee": "local"})
	if res.IsError {
		t.Fatalf("create: %+v", res.StructuredContent)
	}
	res = callTool(t, cs, "fibe_playgrounds_list", nil)
	var cli any
	w.jsonOf(&cli, "pg", "list")
	var text any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &text); err != nil || !reflect.DeepEqual(noCountdown(text), noCountdown(cli)) {
		t.Fatalf("MCP list text %v (%v)\n--json %v", text, err, cli)
	}
	// structuredContent is an object (MCP requires one): the list is its items.
	if got, _ := asJSON(t, res.StructuredContent).(map[string]any); got == nil || !reflect.DeepEqual(noCountdown(got["items"]), noCountdown(cli)) {
		t.Fatalf("MCP list structuredContent %v\n--json %v", res.StructuredContent, cli)
	}
	if res := callTool(t, cs, "fibe_whoami", nil); res.IsError {
		t.Fatalf("whoami: %+v", res.StructuredContent)
	}
	// Every tool's output schema is an object schema.
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if s, _ := asJSON(t, tool.OutputSchema).(map[string]any); s == nil || s["type"] != "object" {
			t.Errorf("%s: output schema %v is not an object schema", tool.Name, tool.OutputSchema)
		}
	}

	res = callTool(t, cs, "fibe_playgrounds_get", map[string]any{"playground": "nope"})
	r := w.run("pg", "get", "nope", "--json")
	var cliErr struct{ Error map[string]any }
	if err := json.Unmarshal([]byte(r.stderr), &cliErr); err != nil || r.code != 3 {
		t.Fatalf("CLI error: %v\n%s", err, r)
	}
	var mcpErr struct{ Error map[string]any }
	if err := json.Unmarshal(mustMarshal(t, res.StructuredContent), &mcpErr); err != nil || !res.IsError {
		t.Fatalf("MCP error: %v %+v", err, res)
	}
	for _, k := range []string{"code", "message", "status", "retryable"} {
		if !reflect.DeepEqual(mcpErr.Error[k], cliErr.Error[k]) {
			t.Errorf("%s: MCP %v, CLI %v", k, mcpErr.Error[k], cliErr.Error[k])
		}
	}
	if _, ok := mcpErr.Error["resume"]; !ok {
		t.Errorf("no resume in %v", mcpErr.Error)
	}

	if err := cs.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("server exit: %v", cmd.ProcessState)
	}
}

// `fibe --api-url local mcp serve` serves the embedded emulator.
func TestMCPStdioServesTheLocalAPI(t *testing.T) {
	w := newUser(t)
	cs, _ := mcpStdio(t, w, "--api-url", "local")
	res := callTool(t, cs, "fibe_marquees_list", nil)
	var list struct{ Items []map[string]any }
	if err := json.Unmarshal(mustMarshal(t, res.StructuredContent), &list); err != nil || res.IsError || len(list.Items) < 3 {
		t.Fatalf("%v %+v", err, res)
	}
}

// --debug traces go to stderr, redacted; stdout stays protocol frames (the
// SDK's client would fail on anything else).
func TestMCPDebugTracesGoToStderrRedacted(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	cs, cmd := mcpStdio(t, w, "--debug")
	if res := callTool(t, cs, "fibe_whoami", nil); res.IsError {
		t.Fatalf("%+v", res.StructuredContent)
	}
	_ = cs.Close()
	stderr := cmd.Stderr.(*testio.Buffer).String()
	if !strings.Contains(stderr, "/api/me") || strings.Contains(stderr, w.key) {
		t.Fatalf("stderr:\n%s", stderr)
	}
}

// A client that goes away mid-call: the server stops, exit 0, and no
// request follows.
func TestMCPStdinEOFMidCallExitsZero(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.2})
	w.ok("pg", "create", "--name", "eof-1", "--playspec", "web", "--marquee", "local", "--no-wait")
	cmd := exec.Command(fibeBin, "mcp", "serve")
	cmd.Env = w.environ()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := &testio.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, &testio.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	send := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	waitUntil(t, 10*time.Second, func() bool { return strings.Contains(stdout.String(), `"id":1`) })
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fibe_playgrounds_wait","arguments":{"playground":"eof-1","for":"stopped"}}}`)
	polls := func() int { return w.server.Stats().Requests["GET /api/playgrounds/{id}/status"]["200"] }
	waitUntil(t, 10*time.Second, func() bool { return polls() > 0 })
	_ = stdin.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the server did not exit on stdin EOF")
	}
	after := polls()
	time.Sleep(100 * time.Millisecond) // the poll interval is 20ms: a straggler would show
	if polls() != after {
		t.Fatal("a poll was sent after the server exited")
	}
}

func waitUntil(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// headerTransport adds headers to every request.
type headerTransport struct {
	header http.Header
	base   http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.header {
		r.Header[k] = v
	}
	return h.base.RoundTrip(r)
}

func TestMCPHTTPChecksTokenOriginAndHost(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	p := w.start("mcp", "serve", "--http", "127.0.0.1:0", "--allow-origin", "http://localhost:5173")
	p.waitFor(t, 10*time.Second, "the token", func(out, _ string) bool { return strings.Contains(out, "Token: ") })
	out, _ := p.output()
	url := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(out)[1]
	token := regexp.MustCompile(`Token: (\S+)`).FindStringSubmatch(out)[1]

	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	post := func(mod func(*http.Request)) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		mod(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	bearer := func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
	for _, c := range []struct {
		what string
		mod  func(*http.Request)
		want int
	}{
		{"no token", func(*http.Request) {}, 401},
		{"wrong token", func(r *http.Request) { r.Header.Set("Authorization", "Bearer nope") }, 401},
		{"foreign Origin", func(r *http.Request) { bearer(r); r.Header.Set("Origin", "https://evil.example") }, 403},
		{"non-loopback Host", func(r *http.Request) { bearer(r); r.Host = "evil.example" }, 403},
		{"another loopback port's Origin", func(r *http.Request) { bearer(r); r.Header.Set("Origin", "http://localhost:3000") }, 403},
		{"token and its own Origin", func(r *http.Request) { bearer(r); r.Header.Set("Origin", strings.TrimSuffix(url, "/mcp")) }, 200},
		{"an Origin given with --allow-origin", func(r *http.Request) { bearer(r); r.Header.Set("Origin", "http://localhost:5173") }, 200},
		{"the scheme in lower case", func(r *http.Request) { r.Header.Set("Authorization", "bearer "+token) }, 200},
	} {
		if got := post(c.mod); got != c.want {
			t.Errorf("%s: status %d, want %d", c.what, got, c.want)
		}
	}

	hc := &http.Client{Transport: headerTransport{header: http.Header{"Authorization": {"Bearer " + token}}, base: http.DefaultTransport}}
	c := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := callTool(t, cs, "fibe_whoami", nil)
	if res.IsError {
		t.Fatalf("whoami: %+v", res.StructuredContent)
	}
	_, stderr := p.output()
	if strings.Contains(stderr, w.key) {
		t.Fatalf("the API key reached stderr:\n%s", stderr)
	}
}

func TestMCPBadInvocationsAreUsageErrors(t *testing.T) {
	w := newUser(t)
	for _, args := range [][]string{
		{"mcp", "serve", "--http", "0.0.0.0:0"},
		{"mcp", "serve", "--http", "evil.localhost:0"}, // loopback is never decided by a lookup
		{"mcp", "serve", "--http", "nonsense"},
		{"mcp", "serve", "--token", "x"},
		{"mcp", "install"},
		{"mcp", "install", "--client", "nope"},
		{"mcp", "install", "--client", "codex", "--scope", "project"},
	} {
		r := w.run(args...)
		// One error line (a --token on the command line also warns that ps shows it).
		var errLines []string
		for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
			if !strings.HasPrefix(l, "Warning: ") {
				errLines = append(errLines, l)
			}
		}
		if r.code != 2 || r.stdout != "" || len(errLines) != 1 || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("fibe %s: %s", strings.Join(args, " "), r)
		}
	}
}

// install writes the client's file without the API key, says which file,
// and changes nothing the second time; uninstall removes the entry.
func TestMCPInstallCursorUserScope(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	r := w.ok("mcp", "install", "--client", "cursor", "--scope", "user")
	path := filepath.Join(w.home, ".cursor", "mcp.json")
	mustContain(t, "install output", r.stdout, "Installed fibe for cursor in "+path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), w.key) || !strings.Contains(string(data), `"serve"`) || !strings.Contains(string(data), w.url) {
		t.Fatalf("config:\n%s", data)
	}
	r = w.ok("mcp", "install", "--client", "cursor", "--scope", "user")
	mustContain(t, "second install", r.stdout, "nothing changed")
	r = w.ok("mcp", "uninstall", "--client", "cursor", "--scope", "user")
	mustContain(t, "uninstall", r.stdout, "Removed fibe for cursor from "+path)
	r = w.ok("mcp", "install", "--client", "codex", "--print")
	mustContain(t, "print", r.stdout, "[mcp_servers.fibe]", "'mcp', 'serve'")
	if _, err := os.Stat(filepath.Join(w.home, ".codex")); !os.IsNotExist(err) {
		t.Fatalf("--print wrote something: %v", err)
	}
	// A state store URL holds a password: it never goes into a client's
	// config (the server reads it as any fibe command does).
	w.env["FIBE_STATE_STORE"] = "redis://fleet:store-pw-42@127.0.0.1:6390/0"
	for _, client := range []string{"cursor", "codex", "vscode", "claude-code"} {
		r = w.ok("mcp", "install", "--client", client, "--print")
		if strings.Contains(r.stdout+r.stderr, "store-pw-42") || strings.Contains(r.stdout, w.key) {
			t.Fatalf("install --client %s --print shows a secret:\n%s", client, r)
		}
		// The store itself is kept, without its password (the server takes
		// that from FIBE_STATE_STORE in its environment).
		if !strings.Contains(r.stdout, "--state-store") || !strings.Contains(r.stdout, "redis://fleet@127.0.0.1:6390/0") {
			t.Fatalf("install --client %s --print drops the state store:\n%s", client, r)
		}
	}
}

// noCountdown drops every time_remaining (seconds left, which moves
// between two reads of the same playground) from a JSON value.
func noCountdown(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "time_remaining")
		for _, e := range x {
			noCountdown(e)
		}
	case []any:
		for _, e := range x {
			noCountdown(e)
		}
	}
	return v
}

// A script may write its requests and close stdin at once: every call
// read before the end of input is answered before the server exits.
// Without the drain, the SDK ended the session at end of input and most
// runs lost the answers still being worked on.
func TestMCPStdioAnswersEveryCallBeforeEndOfInput(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"script","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fibe_playgrounds_list","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}
	input := strings.Join(lines, "\n") + "\n"
	for run := range 5 {
		cmd := exec.Command(fibeBin, "mcp", "serve")
		cmd.Env = w.environ()
		cmd.Stdin = strings.NewReader(input)
		stderr := &testio.Buffer{}
		cmd.Stderr = stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %d: %v\nstderr:\n%s", run, err, stderr.String())
		}
		answered := map[float64]bool{}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for dec.More() {
			var msg struct {
				ID     *float64        `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := dec.Decode(&msg); err != nil {
				t.Fatalf("run %d: stdout is not JSON-RPC messages: %v\n%s", run, err, out)
			}
			if msg.ID != nil && len(msg.Result) > 0 {
				answered[*msg.ID] = true
			}
		}
		for _, id := range []float64{1, 2, 3} {
			if !answered[id] {
				t.Fatalf("run %d: call %v got no answer before exit; stdout:\n%s\nstderr:\n%s", run, id, out, stderr.String())
			}
		}
	}
}
