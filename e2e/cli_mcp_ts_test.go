package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
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
	node, err := exec.LookPath("node")
	sdk := filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, statErr := os.Stat(sdk); err != nil || statErr != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI needs node and the TypeScript SDK (npm ci in e2e/testdata/mcp-ts): node: %v, sdk: %v", err, statErr)
		}
		t.Skipf("no node or no TypeScript SDK (run npm ci in e2e/testdata/mcp-ts): %v %v", err, statErr)
	}
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
