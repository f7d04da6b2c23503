package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
)

// elicitor answers elicitation/create as a person would, and records
// what it was asked.
type elicitor struct {
	mu     sync.Mutex
	asked  []string
	answer func() *mcp.ElicitResult
}

func (e *elicitor) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		e.mu.Lock()
		e.asked = append(e.asked, r.Params.Message)
		e.mu.Unlock()
		return e.answer(), nil
	}}
}

func (e *elicitor) questions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.asked...)
}

// A client that can elicit is asked; a decline, a cancel, false or an
// answer that is not a boolean sends nothing; true runs the tool.
func TestElicitationAsksTheUserBeforeADestructiveTool(t *testing.T) {
	el := &elicitor{}
	w := newWorldClient(t, localapi.Config{}, el.options())
	w.createPG("ask-1", "web", "local")
	for _, answer := range []*mcp.ElicitResult{
		{Action: "decline"},
		{Action: "cancel"},
		{Action: "accept", Content: map[string]any{"confirm": false}},
	} {
		el.answer = func() *mcp.ElicitResult { return answer }
		e := w.fail("fibe_playgrounds_delete", map[string]any{"playground": "ask-1"})
		if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != "confirm" {
			t.Fatalf("answer %+v: error %v", answer, e)
		}
	}
	// An answer that is not a boolean (the Go SDK's client would refuse to
	// send one, so it is sent as the retried call's input response).
	res, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_delete", Arguments: map[string]any{"playground": "ask-1"},
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": "yes"}}}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "INVALID_ARGUMENT") {
		t.Fatalf("a non-boolean answer: %v %+v", err, res)
	}
	if n := w.reqs.count("DELETE", "/api/"); n != 0 {
		t.Fatalf("%d DELETE sent after declines", n)
	}
	asked := el.questions()
	if len(asked) != 3 || asked[0] != "Delete playground ask-1?" {
		t.Fatalf("asked %q", asked)
	}
	el.answer = func() *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
	}
	var out map[string]any
	w.ok("fibe_playgrounds_delete", map[string]any{"playground": "ask-1"}, &out)
	if out["deleted"] != true || w.reqs.count("DELETE", "/api/playgrounds/ask-1") != 1 {
		t.Fatalf("accepted delete: %v", out)
	}
	// "confirm": true needs no question.
	w.createPG("ask-2", "web", "local")
	before := len(el.questions())
	w.ok("fibe_playgrounds_stop", map[string]any{"playground": "ask-2", "confirm": true}, nil)
	if len(el.questions()) != before {
		t.Fatal("asked although confirm was true")
	}
}

// --yes skips both the question and the argument.
func TestYesSkipsElicitation(t *testing.T) {
	el := &elicitor{answer: func() *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} }}
	w := newWorldClient(t, localapi.Config{}, el.options(), func(c *Config, _ *client.Options) { c.Yes = true })
	w.createPG("yes-1", "web", "local")
	w.ok("fibe_playgrounds_delete", map[string]any{"playground": "yes-1"}, nil)
	if len(el.questions()) != 0 {
		t.Fatalf("asked %q under --yes", el.questions())
	}
}

// fibe_api asks (or needs confirm) for anything that may change
// something: DELETE, a POST of an operation; GET and the POSTs that only
// read or test do not.
func TestAPIMutationsNeedTheSameConfirmation(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("api-1", "web", "local")
	sent := len(w.reqs.all())
	for _, args := range []map[string]any{
		{"method": "DELETE", "path": "playgrounds/api-1"},
		{"method": "DELETE", "path": "/api/marquees/local"},
		{"method": "POST", "path": "playgrounds/api-1/operations", "body": map[string]any{"action_type": "stop"}},
		{"path": "playgrounds/api-1/expiration", "body": map[string]any{"hours": 1}}, // POST by its body
		{"method": "PATCH", "path": "playgrounds/api-1", "body": map[string]any{"playground": map[string]any{"name": "x"}}},
	} {
		e := w.fail("fibe_api", args)
		if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != "confirm" || !strings.Contains(e["message"].(string), "Send ") {
			t.Fatalf("%v: error %v", args, e)
		}
	}
	if all := w.reqs.all(); len(all) != sent {
		t.Fatalf("an unconfirmed fibe_api call sent %+v", all[sent:])
	}
	w.ok("fibe_api", map[string]any{"path": "playgrounds/api-1"}, nil)
	w.ok("fibe_api", map[string]any{"method": "POST", "path": "playgrounds/api-1/status"}, nil)
	w.ok("fibe_api", map[string]any{"method": "POST", "path": "playgrounds/api-1/logs"}, nil)
	w.ok("fibe_api", map[string]any{"method": "POST", "path": "marquees/local/connection_tests"}, nil)
	w.ok("fibe_api", map[string]any{"method": "POST", "path": "playgrounds/api-1/operations", "body": map[string]any{"action_type": "stop"}, "confirm": true}, nil)
}

// fibe_api's bad input is INVALID_ARGUMENT naming the field, and nothing
// is sent.
func TestAPIBadInputNamesTheField(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"path": "https://evil.example/api/me"}, "path"},
		{map[string]any{"path": "//evil.example/api/me"}, "path"},
		{map[string]any{"path": "playgrounds#frag"}, "path"},
		{map[string]any{"path": "playgrounds", "method": "POST", "paginate": true, "confirm": true}, "paginate"},
		{map[string]any{"path": "  "}, "path"},
	} {
		e := w.fail("fibe_api", c.args)
		if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != c.field {
			t.Fatalf("%v: error %v, want INVALID_ARGUMENT naming %s", c.args, e, c.field)
		}
	}
	if n := len(w.reqs.all()); n != 0 {
		t.Fatalf("bad input sent %d requests", n)
	}
}

// A client on the 2025-06-18 revision is asked while the call runs
// (elicitation/create from the server); its decline sends nothing, and an
// answer that does not fit the form is a decline.
func TestElicitationOfALegacyClient(t *testing.T) {
	el := &elicitor{}
	w := newWorld(t, localapi.Config{})
	cs := w.legacySession(el.options())
	w.createPG("old-1", "web", "local")
	for _, answer := range []*mcp.ElicitResult{{Action: "decline"}, {Action: "accept", Content: map[string]any{"confirm": "yes"}}} {
		el.answer = func() *mcp.ElicitResult { return answer }
		res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_delete", Arguments: map[string]any{"playground": "old-1"}})
		if err != nil || !res.IsError || !strings.Contains(text(res), "INVALID_ARGUMENT") {
			t.Fatalf("answer %+v: %v %+v", answer, err, res)
		}
	}
	if n := w.reqs.count("DELETE", "/api/"); n != 0 || len(el.questions()) != 2 {
		t.Fatalf("%d DELETE sent, asked %q", n, el.questions())
	}
	el.answer = func() *mcp.ElicitResult {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}
	}
	res, err := cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_delete", Arguments: map[string]any{"playground": "old-1"}})
	if err != nil || res.IsError || w.reqs.count("DELETE", "/api/playgrounds/old-1") != 1 {
		t.Fatalf("accepted: %v %+v", err, res)
	}
}
