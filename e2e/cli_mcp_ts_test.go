package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/testio"
)

// tsClientDir holds the official MCP TypeScript SDK's client, pinned by its
// package-lock.json (CI runs npm ci there).
var tsClientDir = filepath.Join("testdata", "mcp-ts")

// The official TypeScript SDK's client, as a new user's agent would run it,
// against `fibe mcp serve` over stdio: it lists every tool (its schemas
// pass the SDK's checks), then a read, a create, a failing call and a list,
// each result validated by the SDK against the tool's output schema, and a
// delete its user is asked about (elicitation) and declines.
func TestMCPTypeScriptClient(t *testing.T) {
	node := tsClient(t)
	w := newWorld(t, localapi.Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", fibeBin)
	cmd.Dir = tsClientDir
	cmd.Env = w.environ()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\n--- stdout\n%s--- stderr\n%s", err, out.String(), errOut.String())
	}
	var seen struct {
		Asked []string
		Tools []struct{ Name, OutputType, InputType string }
		Calls map[string]struct {
			IsError    bool
			Structured map[string]any
			Text       string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &seen); err != nil {
		t.Fatalf("client output: %v\n%s", err, out.String())
	}

	// Every tool the Go SDK's client lists, the TypeScript one lists too.
	cs, _ := mcpStdio(t, w)
	goTools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, tool := range goTools.Tools {
		want = append(want, tool.Name)
	}
	for _, tool := range seen.Tools {
		got = append(got, tool.Name)
		if tool.OutputType != "object" || tool.InputType != "object" {
			t.Errorf("%s: input schema type %q, output schema type %q", tool.Name, tool.InputType, tool.OutputType)
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("TypeScript client listed %v\nGo client listed %v", got, want)
	}

	if me := seen.Calls["fibe_whoami"]; me.IsError || me.Structured["username"] == nil {
		t.Errorf("whoami: %+v", me)
	}
	if pg := seen.Calls["fibe_playgrounds_create"]; pg.IsError || pg.Structured["status"] != "running" {
		t.Errorf("create: %+v", pg)
	}
	fail := seen.Calls["fibe_playgrounds_get:error"]
	if e, _ := fail.Structured["error"].(map[string]any); !fail.IsError || e["code"] != "RESOURCE_NOT_FOUND" || !strings.Contains(fail.Text, "RESOURCE_NOT_FOUND") {
		t.Errorf("failing get: %+v", fail)
	}
	list := seen.Calls["fibe_playgrounds_list"]
	var cli, text any
	w.jsonOf(&cli, "pg", "list")
	err = json.Unmarshal([]byte(list.Text), &text)
	// time_remaining counts down between the two reads.
	for _, v := range []any{cli, text, list.Structured["items"]} {
		items, _ := v.([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				delete(m, "time_remaining")
			}
		}
	}
	if err != nil || !reflect.DeepEqual(text, cli) || !reflect.DeepEqual(list.Structured["items"], cli) {
		t.Errorf("list: text %v, structured %v, want the items of --json %v", text, list.Structured, cli)
	}

	// Asked before the delete, declined: an error, and the playground stays.
	del := seen.Calls["fibe_playgrounds_delete:error"]
	if e, _ := del.Structured["error"].(map[string]any); !del.IsError || e["code"] != "INVALID_ARGUMENT" ||
		len(seen.Asked) != 1 || seen.Asked[0] != "Delete playground ts-client?" {
		t.Errorf("declined delete: %+v, asked %q", del, seen.Asked)
	}
	if r := w.run("pg", "get", "ts-client", "--json"); r.code != 0 {
		t.Errorf("the playground is gone after a declined delete: %s", r)
	}
}

// tsClient returns node, or skips (fails in CI) when node or the
// TypeScript SDK is missing.
func tsClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	sdk := filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, statErr := os.Stat(sdk); err != nil || statErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI needs node and the TypeScript SDK (npm ci in e2e/testdata/mcp-ts): node: %v, sdk: %v", err, statErr)
		}
		t.Skipf("no node or no TypeScript SDK (run npm ci in e2e/testdata/mcp-ts): %v %v", err, statErr)
	}
	return node
}

// The official TypeScript SDK's client cancels a call to `fibe mcp serve
// --http` and keeps reading the call's event stream (as that SDK does): the
// server's polls stop, no response to the cancelled call reaches the
// client (the SDK would report it as a response to an unknown request),
// and the next call is answered.
func TestMCPTypeScriptClientCancelOverHTTP(t *testing.T) {
	node := tsClient(t)
	w := newWorld(t, localapi.Config{Speed: 0.01}) // a create takes minutes
	if r := w.run("pg", "create", "--name", "ts-cancel", "--playspec", "web", "--marquee", "local", "--no-wait"); r.code != 0 {
		t.Fatalf("create: %s", r)
	}
	p := w.start("mcp", "serve", "--http", "127.0.0.1:0")
	p.waitFor(t, 10*time.Second, "the token", func(out, _ string) bool { return strings.Contains(out, "Token: ") })
	out, _ := p.output()
	url := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(out)[1]
	token := regexp.MustCompile(`Token: (\S+)`).FindStringSubmatch(out)[1]

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "cancel-http.mjs", url, token, "ts-cancel")
	cmd.Dir = tsClientDir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	errOut := &testio.Buffer{}
	cmd.Stdout, cmd.Stderr = &stdout, errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitUntil(t, 30*time.Second, func() bool { return strings.Contains(errOut.String(), "cancelling") })
	// The wait stops: its polls cease.
	polls := func() int { return w.server.Stats().Requests["GET /api/playgrounds/{id}/status"]["200"] }
	last, quietSince := -1, time.Now()
	waitUntil(t, 10*time.Second, func() bool {
		if n := polls(); n != last {
			last, quietSince = n, time.Now()
		}
		return time.Since(quietSince) > 300*time.Millisecond
	})
	if _, err := io.WriteString(stdin, "go on\n"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the TypeScript client failed: %v\n--- stdout\n%s--- stderr\n%s", err, stdout.String(), errOut.String())
	}
	var seen struct {
		Errors    []string
		Progress  int
		Cancelled string
		Next      *struct {
			IsError bool
			Name    string
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &seen); err != nil {
		t.Fatalf("client output: %v\n%s", err, stdout.String())
	}
	if seen.Progress < 1 || seen.Cancelled == "" {
		t.Fatalf("the call was not cancelled as planned: %+v", seen)
	}
	// A progress notification already on its way when the cancel went out
	// is a race the protocol allows (the SDK reports it as one for an
	// unknown token); a response is not.
	for _, e := range seen.Errors {
		if !strings.HasPrefix(e, "Received a progress notification for an unknown token") {
			t.Fatalf("the client saw: %q", seen.Errors)
		}
	}
	if seen.Next == nil || seen.Next.IsError || seen.Next.Name != "ts-cancel" {
		t.Fatalf("the next call: %+v", seen.Next)
	}
}
