package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/stream"
)

func TestToolsListedWithSchemasAndHonestHints(t *testing.T) {
	w := newWorld(t, localapi.Config{}, func(c *Config, _ *client.Options) { c.Tools = ToolsFull })
	res, err := w.cs.ListTools(ctxT(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool
	}
	for _, want := range Tools() {
		tool := got[want.Name]
		if tool == nil {
			t.Fatalf("%s not listed", want.Name)
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" || tool.Annotations == nil {
			t.Fatalf("%s: missing schema, description or annotations: %+v", want.Name, tool)
		}
		// MCP: an output schema is an object schema whose properties are
		// objects (never true, an array or a union with null).
		var out map[string]any
		decode(t, tool.OutputSchema, &out)
		if out["type"] != "object" {
			t.Errorf("%s: output schema type %v", want.Name, out["type"])
		}
		branches := []any{out}
		if alts, ok := out["anyOf"].([]any); ok {
			branches = append(branches, alts...)
		}
		for _, b := range branches {
			props, _ := b.(map[string]any)["properties"].(map[string]any)
			for name, p := range props {
				if _, ok := p.(map[string]any); !ok {
					t.Errorf("%s: output property %s is %v, not a schema object", want.Name, name, p)
				}
			}
		}
		a := tool.Annotations
		destructive := strings.HasSuffix(tool.Name, "_delete") || strings.HasSuffix(tool.Name, "_stop") || strings.HasSuffix(tool.Name, "_exec") || tool.Name == "fibe_api"
		if *a.DestructiveHint != destructive {
			t.Errorf("%s: destructiveHint %v", tool.Name, *a.DestructiveHint)
		}
		idempotent := strings.HasSuffix(tool.Name, "_update") || strings.HasSuffix(tool.Name, "_delete") || tool.Name == "fibe_breaker_reset"
		if a.IdempotentHint != idempotent {
			t.Errorf("%s: idempotentHint %v", tool.Name, a.IdempotentHint)
		}
		if a.ReadOnlyHint && (destructive || strings.Contains(tool.Name, "create")) {
			t.Errorf("%s: readOnlyHint on a mutation", tool.Name)
		}
	}
	if len(got) != len(Tools()) {
		t.Fatalf("listed %d tools, registered %d", len(got), len(Tools()))
	}
	for _, name := range []string{"fibe_playgrounds_list", "fibe_playgrounds_get", "fibe_marquees_list", "fibe_whoami", "fibe_ops_get"} {
		if !got[name].Annotations.ReadOnlyHint {
			t.Errorf("%s is a read without readOnlyHint", name)
		}
	}
}

// A create under commit-then-502 creates exactly one playground with one key.
func TestCreateUnderCommitThen502CreatesOnceWithOneKey(t *testing.T) {
	w := newWorld(t, localapi.Config{Seed: 7}, func(_ *Config, o *client.Options) {
		o.Policy.MaxRetries = 10
		o.Policy.BreakerThreshold = 1000
	})
	w.createPG("calm-1", "web", "local") // learn the marquee first: only the create is faulted
	if err := w.emu.SetChaos("commit-then-502=0.5"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		name := fmt.Sprintf("chaos-%d", i)
		before := len(w.reqs.all())
		var p client.Playground
		w.ok("fibe_playgrounds_create", map[string]any{"name": name, "playspec": "web", "marquee": "local", "wait": false}, &p)
		if p.Name != name {
			t.Fatalf("result %+v", p)
		}
		if n := w.emu.Stats().Creates[name]; n != 1 {
			t.Fatalf("%s created %d times", name, n)
		}
		keys := map[string]bool{}
		for _, r := range w.reqs.all()[before:] {
			if r.Method == "POST" && r.Path == "/api/playgrounds" {
				keys[r.Key] = true
			}
		}
		if len(keys) != 1 || keys[""] {
			t.Fatalf("%s: create keys %v", name, keys)
		}
	}
	if st := w.emu.Stats(); st.Faults["commit-then-502"] == 0 || st.Replays == 0 {
		t.Fatalf("the seed injected no fault or no replay: %+v", st)
	}
}

func TestRolloutReportsProgressAndReturnsTheStatus(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 20})
	w.createPG("preview-42", "web", "local")
	res, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_action",
		Meta:      mcp.Meta{"progressToken": "tok-1"},
		Arguments: map[string]any{"playground": "preview-42", "action": "rollout"}})
	if err != nil || res.IsError {
		t.Fatalf("rollout: %v %s", err, text(res))
	}
	checkOutput(t, "fibe_playgrounds_action", res.StructuredContent)
	var st client.PlaygroundStatus
	decode(t, res.StructuredContent, &st)
	if st.Status != "running" {
		t.Fatalf("status %+v", st)
	}
	waitFor(t, 5*time.Second, func() bool { return len(w.progressOf("tok-1")) >= 2 })
	notes := w.progressOf("tok-1")
	if len(notes) < 2 {
		t.Fatalf("%d progress notifications", len(notes))
	}
	for i, n := range notes {
		if i > 0 && n.Progress <= notes[i-1].Progress {
			t.Fatalf("progress not increasing: %v then %v", notes[i-1].Progress, n.Progress)
		}
	}
	if !strings.HasPrefix(notes[len(notes)-1].Message, "rolling out preview-42 · ") {
		t.Fatalf("message %q", notes[len(notes)-1].Message)
	}
	if !strings.Contains(text(res), `"status": "running"`) {
		t.Fatalf("text content is not the JSON: %s", text(res))
	}
}

func TestBrokenRolloutIsAToolErrorWithCodeStepAndRequestID(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("broken-1", "broken", "local")
	e := w.fail("fibe_playgrounds_action", map[string]any{"playground": "broken-1", "action": "rollout"})
	details, _ := e["details"].(map[string]any)
	if e["code"] != "PLAYGROUND_BUILD_FAILED" || details["step"] != "build" || e["request_id"] == "" || e["request_id"] == nil {
		t.Fatalf("error %v", e)
	}
	if _, ok := e["resume"]; !ok {
		t.Fatalf("no resume key: %v", e)
	}
}

func TestDeadMarqueeOpensTheBreakerAndStopsSending(t *testing.T) {
	w := newWorld(t, localapi.Config{}) // the default policy: 3 retries, the breaker opens after 5 failures
	w.createPG("dead-1", "web", "prod-eu")
	if err := w.emu.SetChaos("outage=marquee/prod-eu@0s+1h"); err != nil {
		t.Fatal(err)
	}
	before := w.reqs.count("", "/api/playgrounds/dead-1")
	var e map[string]any
	for i := 0; i < 10; i++ {
		e = w.fail("fibe_playgrounds_status", map[string]any{"playground": "dead-1"})
		if e["code"] == client.CodeCircuitOpen {
			break
		}
	}
	sent := w.reqs.count("", "/api/playgrounds/dead-1") - before
	if e["code"] != client.CodeCircuitOpen || sent != 5 {
		t.Fatalf("after %d requests: %v", sent, e)
	}
	e = w.fail("fibe_playgrounds_status", map[string]any{"playground": "dead-1"})
	if e["code"] != client.CodeCircuitOpen || w.reqs.count("", "/api/playgrounds/dead-1")-before != 5 {
		t.Fatalf("an open breaker sent a request: %v", e)
	}
	var list struct{ Items []client.BreakerStatus }
	w.ok("fibe_breaker_status", nil, &list)
	if len(list.Items) == 0 || list.Items[0].Resource != "marquee/prod-eu" || list.Items[0].State != "open" {
		t.Fatalf("breakers %+v", list)
	}
	// resource picks one breaker; one that never tripped is closed.
	var one struct{ Items []client.BreakerStatus }
	w.ok("fibe_breaker_status", map[string]any{"resource": "marquee/prod-eu"}, &one)
	if len(one.Items) != 1 || one.Items[0].State != "open" {
		t.Fatalf("breaker marquee/prod-eu: %+v", one)
	}
	w.ok("fibe_breaker_status", map[string]any{"resource": "marquee/elsewhere"}, &one)
	if len(one.Items) != 1 || one.Items[0].Resource != "marquee/elsewhere" || one.Items[0].State != "closed" {
		t.Fatalf("breaker marquee/elsewhere: %+v", one)
	}
	w.ok("fibe_breaker_reset", map[string]any{"resource": "marquee/prod-eu"}, nil)
}

// Cancelling a call mid-wait stops it within a second; nothing is sent after.
func TestCancelMidWaitSendsNothingAfterwards(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.5})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "slow-1", "playspec": "web", "marquee": "local", "wait": false}, nil)
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan error, 1)
	go func() {
		_, err := w.cs.CallTool(ctx, &mcp.CallToolParams{Name: "fibe_playgrounds_action", Meta: mcp.Meta{"progressToken": "slow"},
			Arguments: map[string]any{"playground": "slow-1", "action": "rollout"}})
		done <- err
	}()
	waitFor(t, 10*time.Second, func() bool {
		for _, n := range w.progressOf("slow") {
			if strings.Contains(n.Message, "poll") {
				return true
			}
		}
		return false
	})
	cancel()
	cancelled := time.Now()
	if err := <-done; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	select {
	case <-w.callsDone:
	case <-time.After(time.Second):
		t.Fatal("the call did not stop within 1s of its cancellation")
	}
	// A request sent just before the stop may reach the server a little
	// after it on a loaded machine: wait (bounded) until the log is quiet
	// for ten poll intervals, then watch twenty more. A poller left running
	// (polls every 10ms) is never quiet, or grows the log while watched.
	quiet := func(d time.Duration) bool {
		n := len(w.reqs.all())
		end := time.Now().Add(d)
		for time.Now().Before(end) {
			time.Sleep(10 * time.Millisecond) // sampling the log
			if len(w.reqs.all()) != n {
				return false
			}
		}
		return true
	}
	waitFor(t, 3*time.Second, func() bool { return quiet(100 * time.Millisecond) })
	before := w.reqs.all()
	if !quiet(200 * time.Millisecond) {
		after := w.reqs.all()
		t.Fatalf("requests after the call stopped (%s after cancel): %+v", time.Since(cancelled), after[len(before):])
	}
}

func TestDestructiveToolsNeedConfirm(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("keep-1", "web", "local")
	e := w.fail("fibe_playgrounds_delete", map[string]any{"playground": "keep-1"})
	if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != "confirm" {
		t.Fatalf("error %v", e)
	}
	e = w.fail("fibe_playgrounds_stop", map[string]any{"playground": "keep-1"})
	if e["code"] != client.CodeInvalidArgument {
		t.Fatalf("error %v", e)
	}
	if n := w.reqs.count("DELETE", "/api/"); n != 0 {
		t.Fatalf("%d DELETE sent", n)
	}
	if n := w.reqs.count("POST", "/api/playgrounds/keep-1/operations"); n != 0 {
		t.Fatalf("%d stop sent", n)
	}
	var out map[string]any
	w.ok("fibe_playgrounds_delete", map[string]any{"playground": "keep-1", "confirm": true}, &out)
	if out["deleted"] != true || out["playground"] != "keep-1" {
		t.Fatalf("delete result %v", out)
	}
}

func TestServeYesLiftsTheGate(t *testing.T) {
	w := newWorld(t, localapi.Config{}, func(c *Config, _ *client.Options) { c.Yes = true })
	w.createPG("go-1", "web", "local")
	w.ok("fibe_playgrounds_delete", map[string]any{"playground": "go-1"}, nil)
}

func TestSchemaFailuresAreProtocolErrorsNamingTheField(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"fibe_playgrounds_action", map[string]any{"playground": "x", "action": "rollout", "wait_timeout": 3600}, "wait_timeout"},
		{"fibe_playgrounds_action", map[string]any{"playground": "x", "action": "explode"}, "action"},
		{"fibe_playgrounds_get", map[string]any{}, "playground"},
		{"fibe_playgrounds_get", map[string]any{"playground": 42}, "playground"},
		{"fibe_logs_follow", map[string]any{"playground": "x", "duration": 601}, "duration"},
		{"fibe_playgrounds_list", map[string]any{"bogus": 1}, "bogus"},
		{"fibe_no_such_tool", map[string]any{}, "fibe_no_such_tool"},
	} {
		_, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s %v: %v", c.tool, c.args, err)
		}
	}
	if n := len(w.reqs.all()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

func TestValuesTheSchemaCannotJudgeAreInvalidArgument(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"fibe_playgrounds_action", map[string]any{"playground": "x", "action": "rollout", "idempotency_key": "has space"}, "idempotency_key"},
		{"fibe_playgrounds_get", map[string]any{"playground": "  "}, "playground"},
		{"fibe_playgrounds_update", map[string]any{"playground": "x", "name": "y", "idempotency_key": strings.Repeat("k", 256)}, "idempotency_key"},
		{"fibe_playgrounds_create", map[string]any{"name": "", "playspec": "web"}, "name"},
	} {
		e := w.fail(c.tool, c.args)
		if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != c.field || !strings.Contains(fmt.Sprint(e["message"]), c.field) {
			t.Errorf("%s %v: %v", c.tool, c.args, e)
		}
	}
	if n := len(w.reqs.all()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

func TestSameKeyReplaysAndSaysSo(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	args := map[string]any{"name": "twice", "playspec": "web", "marquee": "local", "idempotency_key": "agent-k1", "wait": false}
	first := w.ok("fibe_playgrounds_create", args, nil)
	if first.Meta["idempotent_replayed"] != nil {
		t.Fatalf("first call replayed: %v", first.Meta)
	}
	second := w.ok("fibe_playgrounds_create", args, nil)
	if second.Meta["idempotent_replayed"] != true {
		t.Fatalf("second call not reported as a replay: %v", second.Meta)
	}
	if n := w.emu.Stats().Creates["twice"]; n != 1 {
		t.Fatalf("created %d times", n)
	}
}

// A slow wait never blocks another call.
func TestConcurrentCallsDoNotWaitOnEachOther(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.5})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "slow-2", "playspec": "web", "marquee": "local", "wait": false}, nil)
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	go func() {
		_, _ = w.cs.CallTool(ctx, &mcp.CallToolParams{Name: "fibe_playgrounds_wait", Arguments: map[string]any{"playground": "slow-2", "for": "stopped"}})
	}()
	waitFor(t, 10*time.Second, func() bool { return w.reqs.count("GET", "/api/playgrounds/slow-2/status") > 0 })
	var list struct {
		Items                []client.Playground
		Page, PerPage, Total int
	}
	w.ok("fibe_playgrounds_list", nil, &list)
	if len(list.Items) != 1 || list.Page != 1 || list.Total != 1 {
		t.Fatalf("list %+v", list)
	}
}

func TestAsyncTimeoutResumesWithOpsWait(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.1})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "late-1", "playspec": "web", "marquee": "local", "wait": false}, nil)
	e := w.fail("fibe_playgrounds_action", map[string]any{"playground": "late-1", "action": "rollout", "wait_timeout": 1})
	r, _ := e["resume"].(map[string]any)
	if e["code"] != client.CodeAsyncTimeout || r["tool"] != "fibe_ops_wait" || r["arguments"].(map[string]any)["request_id"] == "" {
		t.Fatalf("error %v", e)
	}
	var op map[string]any
	w.ok("fibe_ops_get", map[string]any{"request_id": r["arguments"].(map[string]any)["request_id"]}, &op)
	if op["status"] == "" {
		t.Fatalf("ops get %v", op)
	}
}

func waitFor(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", limit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A bounded follow streams lines as progress and returns them.
func TestLogsFollowStreamsLinesAsProgress(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("logs-1", "web", "local")
	w.ok("fibe_playgrounds_action", map[string]any{"playground": "logs-1", "action": "rollout"}, nil)
	res, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_logs_follow", Meta: mcp.Meta{"progressToken": 7},
		Arguments: map[string]any{"playground": "logs-1", "tail": 5, "max_lines": 3, "duration": 20}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	checkOutput(t, "fibe_logs_follow", res.StructuredContent)
	var out struct {
		Lines []stream.LogLine `json:"lines"`
		Ended string           `json:"ended"`
	}
	decode(t, res.StructuredContent, &out)
	if len(out.Lines) != 3 || out.Ended != "max_lines" || out.Lines[0].Line == "" {
		t.Fatalf("result %+v", out)
	}
	// Notifications are handled apart from the response: wait for them.
	waitFor(t, 5*time.Second, func() bool { return len(w.progressOf(float64(7))) >= 3 })
	if notes := w.progressOf(float64(7)); len(notes) != 3 || !strings.Contains(notes[0].Message, out.Lines[0].Line) {
		t.Fatalf("progress %+v", notes)
	}
}

// Every tool once, each result checked against its output schema.
func TestEveryToolAnswersWithinItsOutputSchema(t *testing.T) {
	w := newWorld(t, localapi.Config{}, func(c *Config, _ *client.Options) { c.Tools = ToolsFull })
	used := map[string]bool{}
	ok := func(name string, args map[string]any) map[string]any {
		t.Helper()
		used[name] = true
		var out any
		w.ok(name, args, &out)
		m, _ := out.(map[string]any)
		return m
	}
	if me := ok("fibe_whoami", nil); me["username"] != "local-dev" || !hasKey(me, "avatar_url") {
		t.Fatalf("fibe_whoami = %v, want every field of GET /api/me, avatar_url too", me)
	}
	ok("fibe_playgrounds_create", map[string]any{"name": "tour", "playspec": "web", "marquee": "local", "env": map[string]any{"A": "1"}})
	ok("fibe_playgrounds_list", map[string]any{"all": true})
	ok("fibe_playgrounds_get", map[string]any{"playground": "tour"})
	ok("fibe_playgrounds_update", map[string]any{"playground": "tour", "env": map[string]any{"B": "2"}})
	ok("fibe_playgrounds_action", map[string]any{"playground": "tour", "action": "rollout"})
	ok("fibe_playgrounds_status", map[string]any{"playground": "tour"})
	ok("fibe_playgrounds_status", map[string]any{"playground": "tour", "refresh": true})
	ok("fibe_playgrounds_wait", map[string]any{"playground": "tour"})
	// exec needs no "confirm": it runs a command, it takes nothing down.
	if got := ok("fibe_playgrounds_exec", map[string]any{"playground": "tour", "command": "echo hi from exec"}); !strings.Contains(fmt.Sprint(got["output"]), "hi from exec") || got["exit_code"] != float64(0) {
		t.Fatalf("exec = %v, want the echo and exit code 0", got)
	}
	if got := ok("fibe_playgrounds_exec", map[string]any{"playground": "tour", "command": "exit 3"}); got["exit_code"] != float64(3) {
		t.Fatalf("exec exit 3 = %v, want exit_code 3 as a result, not an error", got)
	}
	if lines := ok("fibe_playgrounds_logs", map[string]any{"playground": "tour", "tail": 3}); len(lines["lines"].([]any)) == 0 {
		t.Fatalf("no log lines: %v", lines)
	}
	if env := ok("fibe_playgrounds_env", map[string]any{"playground": "tour"}); env["merged"].(map[string]any)["B"] != "2" {
		t.Fatalf("fibe_playgrounds_env = %v", env)
	}
	if cmp := ok("fibe_playgrounds_compose", map[string]any{"playground": "tour"}); !strings.Contains(fmt.Sprint(cmp["compose_yaml"]), "services:") {
		t.Fatalf("fibe_playgrounds_compose = %v", cmp)
	}
	if dbg := ok("fibe_playgrounds_debug", map[string]any{"playground": "tour", "logs_tail": 2}); dbg["refreshed"] != true || len(dbg["startup"].(map[string]any)["log_tail"].([]any)) != 2 {
		t.Fatalf("fibe_playgrounds_debug = %v", dbg)
	}
	// fibe_api: a read, a mutation through the same contract, and the
	// platform's 404 for what the API does not serve.
	var specs struct{ Items []map[string]any }
	w.ok("fibe_api", map[string]any{"path": "playspecs", "paginate": true}, &specs)
	if len(specs.Items) == 0 || specs.Items[0]["name"] == nil {
		t.Fatalf("fibe_api playspecs = %v", specs)
	}
	if got := ok("fibe_api", map[string]any{"method": "POST", "path": "/api/playgrounds/tour/expiration", "confirm": true}); got["expires_at"] == nil {
		t.Fatalf("fibe_api extend = %v, want the new expiry", got)
	}
	if e := w.fail("fibe_api", map[string]any{"path": "nothing_served_here"}); e["code"] != "RESOURCE_NOT_FOUND" {
		t.Fatalf("fibe_api nothing_served_here error = %v, want RESOURCE_NOT_FOUND", e)
	}
	handle := ok("fibe_playgrounds_action", map[string]any{"playground": "tour", "action": "hard_restart", "wait": false})
	ok("fibe_ops_wait", map[string]any{"request_id": handle["request_id"]})
	ok("fibe_ops_get", map[string]any{"request_id": handle["request_id"]})
	ok("fibe_playgrounds_stop", map[string]any{"playground": "tour", "confirm": true})
	ok("fibe_playgrounds_delete", map[string]any{"playground": "tour", "confirm": true})
	ok("fibe_marquees_list", nil)
	ok("fibe_marquees_get", map[string]any{"marquee": "local"})
	ok("fibe_marquees_create", map[string]any{"name": "tour-mq", "host": "203.0.113.7", "port": 2222, "user": "deploy"})
	ok("fibe_marquees_update", map[string]any{"marquee": "tour-mq", "port": 22})
	ok("fibe_marquees_test_connection", map[string]any{"marquee": "tour-mq"})
	ok("fibe_marquees_delete", map[string]any{"marquee": "tour-mq", "confirm": true})
	if specs := ok("fibe_playspecs_list", map[string]any{"all": true}); len(specs["items"].([]any)) == 0 {
		t.Fatalf("fibe_playspecs_list = %v", specs)
	}
	if ps := ok("fibe_playspecs_get", map[string]any{"playspec": "web"}); ps["name"] != "web" {
		t.Fatalf("fibe_playspecs_get = %v", ps)
	}
	if a := ok("fibe_agents_create", map[string]any{"name": "tour-agent", "provider": "gemini"}); a["provider_label"] == "" {
		t.Fatalf("fibe_agents_create = %v", a)
	}
	ok("fibe_agents_update", map[string]any{"agent": "tour-agent", "description": "tours"})
	if cp := ok("fibe_agents_duplicate", map[string]any{"agent": "tour-agent"}); cp["name"] != "tour-agent-copy" {
		t.Fatalf("fibe_agents_duplicate = %v", cp)
	}
	if list := ok("fibe_agents_list", map[string]any{"provider": "gemini"}); len(list["items"].([]any)) != 2 {
		t.Fatalf("fibe_agents_list = %v", list)
	}
	if a := ok("fibe_agents_get", map[string]any{"agent": "tour-agent"}); a["description"] != "tours" {
		t.Fatalf("fibe_agents_get = %v", a)
	}
	ok("fibe_agents_delete", map[string]any{"agent": "tour-agent-copy", "confirm": true})
	// A run of a playspec that is not a job one: a playground, not a trick.
	if tr := ok("fibe_tricks_run", map[string]any{"playspec": "web", "name": "tour-trick", "wait": false}); tr["name"] != "tour-trick" || tr["job_mode"] == true {
		t.Fatalf("fibe_tricks_run = %v", tr)
	}
	if st := ok("fibe_tricks_status", map[string]any{"trick": "tour-trick"}); st["name"] != "tour-trick" {
		t.Fatalf("fibe_tricks_status = %v", st)
	}
	if list := ok("fibe_tricks_list", map[string]any{"result": "failed"}); len(list["items"].([]any)) != 0 {
		t.Fatalf("fibe_tricks_list = %v", list)
	}
	used["fibe_tricks_wait"] = true
	if e := w.fail("fibe_tricks_wait", map[string]any{"trick": "no-such-trick"}); e["code"] != "RESOURCE_NOT_FOUND" {
		t.Fatalf("fibe_tricks_wait = %v", e)
	}
	body := filepath.Join(t.TempDir(), "compose.yml")
	if err := os.WriteFile(body, []byte("services:\n  web:\n    image: nginx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ok("fibe_templates_create", map[string]any{"name": "tour-tpl", "body": body, "description": "a tour"})
	ok("fibe_templates_list", nil)
	ok("fibe_templates_get", map[string]any{"template": "tour-tpl"})
	ok("fibe_templates_update", map[string]any{"template": "tour-tpl", "description": "the tour"})
	ok("fibe_templates_version_create", map[string]any{"template": "tour-tpl", "template_body": "services:\n  api:\n    image: node:20\n", "changelog": "two"})
	if vs := ok("fibe_templates_versions", map[string]any{"template": "tour-tpl"}); len(vs["items"].([]any)) != 2 {
		t.Fatalf("fibe_templates_versions = %v", vs)
	}
	if v := ok("fibe_templates_publish", map[string]any{"template": "tour-tpl", "public": true}); v["public"] != true {
		t.Fatalf("fibe_templates_publish = %v", v)
	}
	if r := ok("fibe_templates_launch", map[string]any{"template": "tour-tpl", "marquee": "local", "name": "tour-tl"}); r["playground_id"] == nil {
		t.Fatalf("fibe_templates_launch = %v", r)
	}
	if r := ok("fibe_launch", map[string]any{"compose_yaml": "services:\n  web:\n    image: nginx\n", "name": "tour-launch"}); r["playspec_id"] == nil {
		t.Fatalf("fibe_launch = %v", r)
	}
	ok("fibe_templates_delete", map[string]any{"template": "tour-tpl", "confirm": true})
	compose := filepath.Join(t.TempDir(), "compose.yml")
	if err := os.WriteFile(compose, []byte("services:\n  web:\n    image: nginx:1.27\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ps := ok("fibe_playspecs_create", map[string]any{"name": "tour-ps", "compose": compose, "persist_volumes": true}); ps["persist_volumes"] != true {
		t.Fatalf("fibe_playspecs_create = %v", ps)
	}
	ok("fibe_playspecs_update", map[string]any{"playspec": "tour-ps", "description": "A tour"})
	ok("fibe_playspecs_delete", map[string]any{"playspec": "tour-ps", "confirm": true})
	if svc := ok("fibe_playspecs_services", map[string]any{"playspec": "web"}); len(svc["items"].([]any)) != 3 {
		t.Fatalf("fibe_playspecs_services = %v", svc)
	}
	if v := ok("fibe_compose_validate", map[string]any{"compose_yaml": "services:\n  web:\n    image: nginx:1.27\n", "job_mode": true}); v["valid"] != false || len(v["errors"].([]any)) != 1 {
		t.Fatalf("fibe_compose_validate = %v", v)
	}
	if e := w.fail("fibe_compose_validate", map[string]any{"compose_yaml": "services: [\n"}); e["code"] != "INVALID_ARGUMENT" || !strings.Contains(fmt.Sprint(e["message"]), "line 2, column 1") {
		t.Fatalf("fibe_compose_validate with bad YAML = %v", e)
	}
	// Secrets: the value goes in, and never comes back out.
	if sec := ok("fibe_secrets_create", map[string]any{"key": "TOUR_TOKEN", "value": "tour-s3cret", "description": "d"}); hasKey(sec, "value") {
		t.Fatalf("fibe_secrets_create = %v, want no value", sec)
	}
	ok("fibe_secrets_list", map[string]any{"key": "TOUR"})
	ok("fibe_secrets_update", map[string]any{"secret": "TOUR_TOKEN", "value": "tour-s3cret-2"})
	if sec := ok("fibe_secrets_get", map[string]any{"secret": "TOUR_TOKEN"}); sec["key"] != "TOUR_TOKEN" || hasKey(sec, "value") {
		t.Fatalf("fibe_secrets_get = %v, want the secret without its value", sec)
	}
	ok("fibe_secrets_delete", map[string]any{"secret": "TOUR_TOKEN", "confirm": true})
	key := ok("fibe_api_keys_create", map[string]any{"label": "tour", "scopes": []any{"secrets:read"}})
	if tok, _ := key["token"].(string); !strings.HasPrefix(tok, "fibe_") {
		t.Fatalf("fibe_api_keys_create = %v, want the token", key)
	}
	ok("fibe_api_keys_list", map[string]any{"label": "tour"})
	ok("fibe_api_keys_delete", map[string]any{"api_key": fmt.Sprint(key["id"]), "confirm": true})
	hook := ok("fibe_webhooks_create", map[string]any{"url": "http://127.0.0.1:9/tour", "event": []string{"webhook.test", "marquee.created"}})
	if hook["secret"] == nil || len(hook["events"].([]any)) != 2 {
		t.Fatalf("fibe_webhooks_create = %v, want the secret and both events", hook)
	}
	hookID := fmt.Sprint(hook["id"])
	ok("fibe_webhooks_list", nil)
	if got := ok("fibe_webhooks_get", map[string]any{"webhook": hookID}); got["secret"] != nil {
		t.Fatalf("fibe_webhooks_get shows the secret: %v", got)
	}
	ok("fibe_webhooks_update", map[string]any{"webhook": hookID, "description": "tour"})
	if d := ok("fibe_webhooks_test", map[string]any{"webhook": hookID}); d["event_type"] != "webhook.test" || d["status"] != "pending" {
		t.Fatalf("fibe_webhooks_test = %v", d)
	}
	if ds := ok("fibe_webhooks_deliveries", map[string]any{"webhook": hookID}); len(ds["items"].([]any)) != 1 {
		t.Fatalf("fibe_webhooks_deliveries = %v", ds)
	}
	if et := ok("fibe_webhooks_event_types", nil); len(et["items"].([]any)) == 0 {
		t.Fatalf("fibe_webhooks_event_types = %v", et)
	}
	ok("fibe_webhooks_delete", map[string]any{"webhook": hookID, "confirm": true})
	ok("fibe_audit_logs_list", map[string]any{"resource_type": "Marquee"})
	if props := ok("fibe_props_list", map[string]any{"provider": "github", "private": "false"}); len(props["items"].([]any)) == 0 {
		t.Fatalf("fibe_props_list = %v", props)
	}
	ok("fibe_props_create", map[string]any{"repository_url": "https://github.com/local-dev/tour", "private": true})
	if p := ok("fibe_props_get", map[string]any{"prop": "tour"}); p["private"] != true {
		t.Fatalf("fibe_props_get = %v", p)
	}
	ok("fibe_props_update", map[string]any{"prop": "tour", "private": false})
	if got := ok("fibe_props_sync", map[string]any{"prop": "tour"}); got["message"] == "" {
		t.Fatalf("fibe_props_sync = %v", got)
	}
	ok("fibe_props_delete", map[string]any{"prop": "tour", "confirm": true})
	if b := ok("fibe_props_branches", map[string]any{"prop": "demo-app", "query": "dev"}); len(b["branches"].([]any)) != 1 {
		t.Fatalf("fibe_props_branches = %v", b)
	}
	if d := ok("fibe_props_env_defaults", map[string]any{"prop": "demo-app", "branch": "main"}); d["defaults"].(map[string]any)["PORT"] != "3000" {
		t.Fatalf("fibe_props_env_defaults = %v", d)
	}
	if e := w.fail("fibe_props_env_defaults", map[string]any{"prop": "demo-app", "branch": "main", "env_file": "../x"}); e["code"] != "INVALID_ARGUMENT" {
		t.Fatalf("fibe_props_env_defaults outside the repository = %v", e)
	}
	if e := w.fail("fibe_props_attach", map[string]any{"repo": "nginx/nginx"}); e["code"] != "RESOURCE_NOT_FOUND" {
		t.Fatalf("fibe_props_attach of an unknown repository = %v", e)
	}
	ok("fibe_api", map[string]any{"method": "POST", "path": "/api/github_repositories", "body": map[string]any{"name": "tour-lib"}, "confirm": true})
	if p := ok("fibe_props_attach", map[string]any{"repo": "local-dev/tour-lib"}); p["provider"] != "github" {
		t.Fatalf("fibe_props_attach = %v", p)
	}
	if p := ok("fibe_props_mirror", map[string]any{"source_url": "https://github.com/nginx/nginx"}); p["original_repository_url"] != "https://github.com/nginx/nginx" {
		t.Fatalf("fibe_props_mirror = %v", p)
	}
	ok("fibe_breaker_status", nil)
	ok("fibe_breaker_reset", nil)
	used["fibe_logs_follow"] = true // TestLogsFollowStreamsLinesAsProgress
	for _, tool := range Tools() {
		if !used[tool.Name] {
			t.Errorf("%s not exercised", tool.Name)
		}
	}
}

// An unknown outcome resumes with the same tool, arguments and key; the
// resumed call is a replay, and nothing is created twice.
func TestUnknownOutcomeResumesWithTheSameKey(t *testing.T) {
	w := newWorld(t, localapi.Config{}, func(_ *Config, o *client.Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.BreakerThreshold = 1000
	})
	w.createPG("warm", "web", "local")
	if err := w.emu.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"name": "lost-answer", "playspec": "web", "marquee": "local", "wait": false}
	e := w.fail("fibe_playgrounds_create", args)
	r, _ := e["resume"].(map[string]any)
	if r["tool"] != "fibe_playgrounds_create" {
		t.Fatalf("error %v", e)
	}
	again := r["arguments"].(map[string]any)
	if again["idempotency_key"] == "" || again["idempotency_key"] != e["idempotency_key"] || again["name"] != "lost-answer" {
		t.Fatalf("resume arguments %v (error %v)", again, e)
	}
	if err := w.emu.SetChaos("off"); err != nil {
		t.Fatal(err)
	}
	res := w.ok("fibe_playgrounds_create", again, nil)
	if res.Meta["idempotent_replayed"] != true {
		t.Fatalf("the resumed call was not a replay: %v", res.Meta)
	}
	if n := w.emu.Stats().Creates["lost-answer"]; n != 1 {
		t.Fatalf("created %d times", n)
	}
}

// An agent that simply calls the same tool again with the same arguments
// after a lost answer (no key copied) gets the replay: the outcome journal
// in the client gives the call the first one's key. A cancelled call
// leaves its entry in the journal too.
func TestSameCallAgainReplaysThroughTheJournal(t *testing.T) {
	state := t.TempDir()
	w := newWorld(t, localapi.Config{}, func(_ *Config, o *client.Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.BreakerThreshold = 1000
		o.Store, o.JournalWindow, o.Profile = reliability.NewFileStore(state), 15*time.Minute, "default"
	})
	w.createPG("warm", "web", "local")
	if err := w.emu.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"name": "agent-retry", "playspec": "web", "marquee": "local", "wait": false}
	first := w.fail("fibe_playgrounds_create", args)
	if err := w.emu.SetChaos("off"); err != nil {
		t.Fatal(err)
	}
	pending, err := reliability.NewJournal(reliability.NewFileStore(state), nil).List()
	if err != nil || len(pending) != 1 || pending[0].Key != first["idempotency_key"] {
		t.Fatalf("journal after the lost answer: %+v (%v), want the call's key %v", pending, err, first["idempotency_key"])
	}
	res := w.ok("fibe_playgrounds_create", args, nil)
	if res.Meta["idempotent_replayed"] != true {
		t.Fatalf("calling again was not a replay: %v", res.Meta)
	}
	if n := w.emu.Stats().Creates["agent-retry"]; n != 1 {
		t.Fatalf("created %d times", n)
	}
	var keys []string
	for _, r := range w.reqs.all() {
		if r.Method == http.MethodPost && r.Path == "/api/playgrounds" && r.Key != "" {
			keys = append(keys, r.Key)
		}
	}
	if len(keys) < 3 || keys[len(keys)-1] != keys[len(keys)-2] {
		t.Fatalf("keys sent by the creates %v: the second call must reuse the first's", keys)
	}
	if pending, _ := reliability.NewJournal(reliability.NewFileStore(state), nil).List(); len(pending) != 0 {
		t.Fatalf("the replay left %+v in the journal", pending)
	}
}

func TestRetriesAreReportedAsProgress(t *testing.T) {
	w := newWorld(t, localapi.Config{Seed: 1, Chaos: "503=0.6"}, func(_ *Config, o *client.Options) {
		o.Policy.MaxRetries = 20
		o.Policy.BreakerThreshold = 1000
	})
	for i := 0; i < 10 && w.emu.Stats().Faults["503"] == 0; i++ {
		res, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_marquees_list", Meta: mcp.Meta{"progressToken": "r"}})
		if err != nil || res.IsError {
			t.Fatalf("%v %s", err, text(res))
		}
	}
	if w.emu.Stats().Faults["503"] == 0 {
		t.Fatal("the seed injected no 503")
	}
	waitFor(t, 5*time.Second, func() bool {
		for _, n := range w.progressOf("r") {
			if strings.Contains(n.Message, "retrying in") {
				return true
			}
		}
		return false
	})
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}
