package mcpserver

import (
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// journaled is a world whose client keeps the outcome journal in a file
// store, as `fibe mcp serve` does, with the given journal window.
func journaled(t *testing.T, window time.Duration) worldOpt {
	state := t.TempDir()
	return func(_ *Config, o *client.Options) {
		o.Store, o.JournalWindow, o.Profile = reliability.NewFileStore(state), window, "default"
	}
}

// A rollout slower than the call's budget answers the hand-off handle by
// the budget (+1 s), sends one rollout, and fibe_ops_wait finishes it; the
// same call again resumes the same operation through the journal, even
// after the journal window (here 1 ms): a handed-off entry outlives it.
func TestCallBudgetHandsOffASlowRollout(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.05}, journaled(t, time.Millisecond)) // a rollout takes tens of seconds
	w.ok("fibe_playgrounds_create", map[string]any{"name": "slow-roll", "playspec": "web", "marquee": "local", "wait": false}, nil)
	w.advance(time.Hour)
	w.ok("fibe_playgrounds_wait", map[string]any{"playground": "slow-roll"}, nil)
	before := w.emu.Stats().Mutations
	args := map[string]any{"playground": "slow-roll", "action": "rollout", "call_budget": 1}
	began := time.Now()
	var h handoff
	w.ok("fibe_playgrounds_action", args, &h)
	if took := time.Since(began); took > 5*time.Second {
		t.Fatalf("the hand-off came after %s, budget 1s (the bound is tolerant of a loaded machine; the rollout takes tens of seconds)", took)
	}
	if h.Status != "pending" || !h.HandedOff || h.RequestID == "" || h.IdempotencyKey == "" ||
		h.Resume == nil || h.Resume.Tool != "fibe_ops_wait" || h.Resume.Arguments["request_id"] != h.RequestID {
		t.Fatalf("hand-off %+v", h)
	}
	// The server stopped polling: no status request after the answer.
	polls := w.reqs.count("GET", "/api/operations/")
	time.Sleep(100 * time.Millisecond) // polls come every 10ms: a straggler would show
	if n := w.reqs.count("GET", "/api/operations/"); n != polls {
		t.Fatalf("%d polls after the hand-off", n-polls)
	}

	// The same call again: the journal's key, the server's replay, the same
	// operation; handed off again.
	var again handoff
	res := w.ok("fibe_playgrounds_action", args, &again)
	if res.Meta["idempotent_replayed"] != true || again.RequestID != h.RequestID || again.IdempotencyKey != h.IdempotencyKey {
		t.Fatalf("second call: %+v meta %v, want a replay of %+v", again, res.Meta, h)
	}
	if n := w.emu.Stats().Mutations - before; n != 1 {
		t.Fatalf("the emulator ran %d mutations, want one rollout", n)
	}

	w.advance(time.Hour)
	var done client.PlaygroundStatus
	w.ok("fibe_ops_wait", map[string]any{"request_id": h.RequestID, "call_budget": 0}, &done)
	if done.Status != "running" {
		t.Fatalf("after ops wait: %+v", done)
	}
}

// A budget not shorter than wait_timeout leaves the wait's own end:
// ASYNC_TIMEOUT, an error.
func TestCallBudgetNotShorterThanTheWaitIsATimeout(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.05})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "slow-2", "playspec": "web", "marquee": "local", "wait": false}, nil)
	w.advance(time.Hour)
	w.ok("fibe_playgrounds_wait", map[string]any{"playground": "slow-2"}, nil)
	e := w.fail("fibe_playgrounds_action", map[string]any{"playground": "slow-2", "action": "rollout", "call_budget": 5, "wait_timeout": 1})
	if e["code"] != client.CodeAsyncTimeout {
		t.Fatalf("error %v, want ASYNC_TIMEOUT", e)
	}
}

// A create waiting for its playground to run hands off to
// fibe_playgrounds_wait, which obeys the same budget.
func TestCallBudgetCreateHandsOffToPlaygroundsWait(t *testing.T) {
	state := t.TempDir()
	w := newWorld(t, localapi.Config{Speed: 0.02}, func(_ *Config, o *client.Options) {
		o.Store, o.JournalWindow, o.Profile = reliability.NewFileStore(state), 15*time.Minute, "default"
	})
	var h handoff
	args := map[string]any{"name": "slow-3", "playspec": "web", "marquee": "local", "call_budget": 1}
	w.ok("fibe_playgrounds_create", args, &h)
	if !h.HandedOff || h.Playground != "slow-3" || h.WaitingFor != "running" || h.Resume == nil ||
		h.Resume.Tool != "fibe_playgrounds_wait" || h.Resume.Arguments["for"] != "running" {
		t.Fatalf("hand-off %+v", h)
	}
	var again handoff
	w.ok("fibe_playgrounds_wait", map[string]any{"playground": "slow-3", "call_budget": 1}, &again)
	if !again.HandedOff || again.Resume.Tool != "fibe_playgrounds_wait" {
		t.Fatalf("wait: %+v", again)
	}
	// The same create again: a replay of the first (its journal entry was
	// kept), waiting on; once running, the entry goes.
	res := w.ok("fibe_playgrounds_create", args, &again)
	if res.Meta["idempotent_replayed"] != true || !again.HandedOff || w.emu.Stats().Creates["slow-3"] != 1 {
		t.Fatalf("create again: %+v meta %v creates %d", again, res.Meta, w.emu.Stats().Creates["slow-3"])
	}
	w.advance(time.Hour)
	var p client.Playground
	w.ok("fibe_playgrounds_create", args, &p)
	if p.Status != "running" || w.emu.Stats().Creates["slow-3"] != 1 {
		t.Fatalf("create once running: %+v", p)
	}
	if pending, _ := reliability.NewJournal(reliability.NewFileStore(state), nil).List(); len(pending) != 0 {
		t.Fatalf("journal after the create ended: %+v", pending)
	}
}

// Out of range is a schema error.
func TestCallBudgetOutOfRangeIsASchemaError(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	for _, b := range []any{-1, 1801, "soon"} {
		_, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_action",
			Arguments: map[string]any{"playground": "x", "action": "rollout", "call_budget": b}})
		if err == nil || !strings.Contains(err.Error(), "call_budget") {
			t.Fatalf("call_budget %v: %v", b, err)
		}
	}
}

// A waiting call with a progress token hears from the server at least
// every heartbeat, even when nothing changes.
func TestHeartbeatWhileWaiting(t *testing.T) {
	const beat = 200 * time.Millisecond
	w := newWorld(t, localapi.Config{Speed: 0.02}, func(c *Config, o *client.Options) {
		c.Heartbeat = beat
		o.Policy.PollInterval = time.Hour // no poll events: only heartbeats
	})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "quiet", "playspec": "web", "marquee": "local", "wait": false}, nil)
	began := time.Now()
	res, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_playgrounds_wait", Meta: mcp.Meta{"progressToken": "hb"},
		Arguments: map[string]any{"playground": "quiet", "call_budget": 2}})
	if err != nil || res.IsError {
		t.Fatalf("%v %s", err, text(res))
	}
	took := time.Since(began)
	notes := w.progressOf("hb")
	beats := 0
	for i, n := range notes {
		if strings.Contains(n.Message, "still waiting") {
			beats++
		}
		if i > 0 && n.Progress <= notes[i-1].Progress {
			t.Fatalf("progress went back: %+v after %+v", n, notes[i-1])
		}
	}
	// One per interval; a loaded machine may delay a timer, so half of them
	// is the floor. Without heartbeats there is one poll note and nothing else.
	if want := int(took/beat) / 2; beats < want || beats < 3 {
		t.Fatalf("%d heartbeats in %s, want at least %d: %+v", beats, took, max(want, 3), notes)
	}
}

// Every mutating tool that can wait takes wait and wait_timeout, the
// updates too (docs/mcp-tools.md).
func TestUpdatesTakeWaitArguments(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("upd", "web", "local")
	var p client.Playground
	w.ok("fibe_playgrounds_update", map[string]any{"playground": "upd", "name": "upd-2", "wait": true, "wait_timeout": 60, "call_budget": 10}, &p)
	if p.Name != "upd-2" {
		t.Fatalf("update: %+v", p)
	}
	var m client.Marquee
	w.ok("fibe_marquees_update", map[string]any{"marquee": "local", "user": "deploy", "wait": false, "wait_timeout": 60}, &m)
	for _, tool := range Tools() {
		props := tool.Input.Properties
		if props["idempotency_key"] != nil && (props["wait"] == nil || props["wait_timeout"] == nil || props["call_budget"] == nil) {
			t.Errorf("%s is a mutation without wait, wait_timeout or call_budget", tool.Name)
		}
	}
}

// --tools full lists every tool the server has, each with input and
// output schemas that resolve; core lists the tools docs/mcp-tools.md names.
func TestToolSets(t *testing.T) {
	for _, set := range []string{ToolsCore, ToolsFull} {
		w := newWorld(t, localapi.Config{}, func(c *Config, _ *client.Options) { c.Tools = set })
		res, err := w.cs.ListTools(ctxT(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := len(ToolSet(set))
		if set == ToolsFull {
			want = len(Tools())
		}
		if len(res.Tools) != want || want == 0 {
			t.Fatalf("--tools %s listed %d tools, want %d", set, len(res.Tools), want)
		}
		for _, tool := range res.Tools {
			for what, s := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
				var schema jsonschema.Schema
				decode(t, s, &schema)
				if _, err := schema.Resolve(nil); err != nil || schema.Type != "object" {
					t.Errorf("--tools %s: %s %s schema: %v (type %q)", set, tool.Name, what, err, schema.Type)
				}
			}
		}
	}
}
