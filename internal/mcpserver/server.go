// Package mcpserver is `fibe mcp serve`: a Model Context Protocol server
// whose tools are thin shells over the same client as the CLI (docs/mcp-tools.md, docs/errors.md).
// Every tool call is one logical operation of the reliability contract:
// one idempotency key, classified retries, 202 polling, the breaker. A
// success's structured content is exactly what `--json` prints for the
// same command; a failure is a tool result with isError whose structured
// content is the CLI's JSON error document plus a resume hint in MCP terms.
//
// Arguments are checked against each tool's input schema before anything
// runs (a failure is a JSON-RPC invalid-params error naming the field);
// values the schema cannot judge (an idempotency key, a blank reference)
// are INVALID_ARGUMENT tool errors, and nothing is sent.
package mcpserver

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/build"
	"github.com/fibegg/fibe/internal/client"
)

// ClientFunc builds the API client of one tool call; onEvent receives that
// call's progress events (nil when the call asked for no progress).
// requireKey is false for tools that touch only local state (breakers).
type ClientFunc func(onEvent func(client.Event), requireKey bool) (*client.Client, error)

// Config wires a server to the client and the process.
type Config struct {
	// Client builds the client of each call (required). Calls share the
	// transport and the state store; each has its own event sink.
	Client ClientFunc
	// StreamClient, when set, builds the client of a live log stream
	// (the in-process emulator needs a real socket for websockets); stop
	// is called when the stream ends.
	StreamClient func() (c *client.Client, stop func(), err error)
	// Yes lifts the confirmation gate of destructive tools (serve --yes).
	Yes bool
	// CallBudget is how long a waiting call may wait before it answers
	// with a hand-off handle (0: no budget). A call's call_budget wins.
	CallBudget time.Duration
	// Heartbeat is the longest a waiting call that asked for progress
	// stays silent (default DefaultHeartbeat).
	Heartbeat time.Duration
	// Tools is the tool set: "core" (default) or "full" (ToolSet).
	Tools string
	// ResourcePoll is how often a subscribed playground is looked at
	// (default reliability.DefaultPollInterval).
	ResourcePoll time.Duration
	// Log receives the server's own log lines (stderr), or nil.
	Log io.Writer
}

// Name is the server's name in the MCP handshake and in client configs.
const Name = "fibe"

// New returns the MCP server with every tool registered.
func New(cfg Config) *mcp.Server {
	res := newResources(&cfg)
	opts := &mcp.ServerOptions{
		Instructions: instructions,
		// No logging capability: logs go to stderr, never to the protocol.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{},
			Resources: &mcp.ResourceCapabilities{Subscribe: true}},
		SubscribeHandler:   res.subscribe,
		UnsubscribeHandler: res.unsubscribe,
	}
	if cfg.Log != nil {
		opts.Logger = slog.New(slog.NewTextHandler(cfg.Log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	version, _, _ := build.Stamp()
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Title: "Fibe", Version: version}, opts)
	res.register(s)
	// The tools and their schemas are built when a client first asks for
	// them, not at startup: answering initialize stays fast.
	var once sync.Once
	register := func() {
		once.Do(func() {
			for _, t := range ToolSet(cfg.Tools) {
				s.AddTool(t.mcpTool(), t.handler(&cfg))
			}
		})
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/list", "tools/call":
				register()
			case "resources/list":
				return res.list(ctx) // the first page of playgrounds and marquees, live
			}
			return next(ctx, method, req)
		}
	})
	s.AddReceivingMiddleware(endStreamOnCancel)
	return s
}

const instructions = `Tools to manage Fibe playgrounds (preview environments) and the marquees (Docker hosts) they run on.
Every mutating tool sends one idempotency key per call; pass "idempotency_key" to make a retried call replay instead of repeating.
Async operations are waited for unless "wait": false, which returns a handle {"request_id","status","status_url"} to pass to fibe_ops_wait.
A call still waiting at the end of its call budget answers {"status":"pending","handed_off":true,...,"resume"}: call resume's tool to go on.
Failures are results with isError: branch on structuredContent.error.code; error.resume, when set, is the exact tool call that resumes.
Destructive tools (_delete, _stop) and fibe_api requests that change something ask the user, or need "confirm": true.`
