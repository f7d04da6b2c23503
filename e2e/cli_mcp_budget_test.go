package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/localapi"
)

// handoffOf decodes a hand-off handle, failing unless the result is one.
func handoffOf(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	var h map[string]any
	if err := json.Unmarshal(mustMarshal(t, res.StructuredContent), &h); err != nil || res.IsError || h["handed_off"] != true {
		t.Fatalf("not a hand-off: %v %+v", err, res.StructuredContent)
	}
	return h
}

// `fibe mcp serve --call-budget`, over stdio and over HTTP: a create
// slower than the budget answers the hand-off handle by the budget, not
// after the minutes provisioning takes; calling it again resumes the same
// playground through the journal. The bound is tolerant (a loaded machine
// under -race adds seconds of its own); the budget's precision is tested in
// internal/mcpserver.
func TestMCPCallBudgetOverStdioAndHTTP(t *testing.T) {
	const handoffBound = 15 * time.Second          // budget 1 s; provisioning takes minutes
	w := newWorld(t, localapi.Config{Speed: 0.01}) // provisioning takes minutes
	w.env["FIBE_MCP_CALL_BUDGET"] = "1s"
	cs, _ := mcpStdio(t, w)
	args := map[string]any{"name": "budget-stdio", "playspec": "web", "marquee": "local"}
	began := time.Now()
	res := callTool(t, cs, "fibe_playgrounds_create", args)
	took := time.Since(began)
	h := handoffOf(t, res)
	resume, _ := h["resume"].(map[string]any)
	if took > handoffBound || h["status"] != "pending" || resume["tool"] != "fibe_playgrounds_wait" {
		t.Fatalf("after %s: %v", took, h)
	}
	again := callTool(t, cs, "fibe_playgrounds_create", args)
	handoffOf(t, again)
	if again.Meta["idempotent_replayed"] != true || w.server.Stats().Creates["budget-stdio"] != 1 {
		t.Fatalf("second call: meta %v, creates %d", again.Meta, w.server.Stats().Creates["budget-stdio"])
	}

	p := w.start("mcp", "serve", "--http", "127.0.0.1:0")
	p.waitFor(t, 10*time.Second, "the token", func(out, _ string) bool { return strings.Contains(out, "Token: ") })
	out, _ := p.output()
	url := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(out)[1]
	token := regexp.MustCompile(`Token: (\S+)`).FindStringSubmatch(out)[1]
	hc := &http.Client{Transport: headerTransport{header: http.Header{"Authorization": {"Bearer " + token}}, base: http.DefaultTransport}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hs, err := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hs.Close()
	began = time.Now()
	res = callTool(t, hs, "fibe_playgrounds_create", map[string]any{"name": "budget-http", "playspec": "web", "marquee": "local"})
	if took := time.Since(began); took > handoffBound {
		t.Fatalf("the HTTP hand-off came after %s", took)
	}
	handoffOf(t, res)
}
