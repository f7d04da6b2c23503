package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
)

// call is one tool call: its arguments, its client and its progress.
type call struct {
	ctx  context.Context
	cfg  *Config
	tool *Tool
	req  *mcp.CallToolRequest
	args json.RawMessage

	// resp is the metadata of the call's mutation, for the replay flag.
	resp *client.Response

	// budgeted: the call's wait was cut to its call budget, so an
	// ASYNC_TIMEOUT is the budget's end (a hand-off), not an error.
	budgeted bool

	mu       sync.Mutex // serialises progress notifications
	label    string     // "rolling out preview-42"
	progress float64
	lastNote time.Time // when the last progress notification went out
	token    any
	stops    []func()
}

func newCall(ctx context.Context, cfg *Config, t *Tool, req *mcp.CallToolRequest, args json.RawMessage) *call {
	c := &call{ctx: ctx, cfg: cfg, tool: t, req: req, args: args}
	if req.Params != nil {
		c.token = req.Params.GetProgressToken()
	}
	if c.token != nil && req.Session != nil {
		c.lastNote = time.Now()
		c.stops = append(c.stops, c.heartbeat())
	}
	return c
}

func (c *call) close() {
	for _, stop := range c.stops {
		stop()
	}
}

// The checks every input may take part in, through its embedded structs.
type (
	keyed     interface{ key() string }
	confirmed interface{ confirmed() bool }
	validated interface{ validate() error }
	// asking inputs name what confirming them means ("Delete playground
	// preview-42?"), for the elicitation form.
	asking interface{ question() string }
	// gating inputs decide themselves whether they need a confirmation
	// (fibe_api: a request that may change something).
	gating interface{ gated() bool }
)

func (m mutationArgs) key() string    { return m.IdempotencyKey }
func (a confirmArgs) confirmed() bool { return a.Confirm }

// prepare checks what the schema cannot judge, before anything is sent.
func (c *call) prepare(in any) error {
	if k, ok := in.(keyed); ok {
		if err := validKey(k.key()); err != nil {
			return err
		}
	}
	if v, ok := in.(validated); ok {
		if err := v.validate(); err != nil {
			return err
		}
	}
	gated := c.tool.Gated
	if g, ok := in.(gating); ok {
		gated = g.gated()
	}
	if gated && !c.cfg.Yes {
		if cf, ok := in.(confirmed); ok && cf.confirmed() {
			return nil
		}
		question := c.tool.Title + "?"
		if a, ok := in.(asking); ok {
			question = a.question()
		}
		answer, answered := c.userAnswer()
		if !answered && c.canAsk() {
			if c.askInline() {
				answer, answered = c.elicit(question), true
			} else {
				return &askUser{question: question}
			}
		}
		if answered && answer {
			return nil
		}
		return invalidArgument("confirm", "%s: %s Not confirmed: call it again with \"confirm\": true if that is what you mean",
			c.tool.Name, question)
	}
	return nil
}

// askUser is the answer of a call that needs the user's confirmation first:
// an elicitation form (one boolean field). The SDK asks the client and
// calls the tool again with the answer (userAnswer).
type askUser struct{ question string }

func (a *askUser) Error() string { return "needs the user's confirmation: " + a.question }

const confirmInput = "confirm"

func (a *askUser) result() *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{confirmInput: a.params()}}
}

func (a *askUser) params() *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: a.question, RequestedSchema: map[string]any{
		"type": "object", "required": []string{"confirm"},
		"properties": map[string]any{"confirm": map[string]any{"type": "boolean", "title": "Confirm", "description": a.question}},
	}}
}

// askInline reports whether the client speaks a protocol revision older
// than multi round-trip requests (2026-07-28), where the server sends
// elicitation/create itself while the call runs.
func (c *call) askInline() bool {
	ip := c.req.Session.InitializeParams()
	return ip.ProtocolVersion < "2026-07-28"
}

// elicit asks the user directly; an error (an answer that does not fit the
// form, a client that went away) is a decline.
func (c *call) elicit(question string) bool {
	res, err := c.req.Session.Elicit(c.ctx, (&askUser{question: question}).params())
	if err != nil || res == nil || res.Action != "accept" {
		return false
	}
	v, ok := res.Content["confirm"].(bool)
	return ok && v
}

// canAsk reports whether the client declared the elicitation capability.
func (c *call) canAsk() bool {
	ss := c.req.Session
	if ss == nil {
		return false
	}
	ip := ss.InitializeParams()
	return ip != nil && ip.Capabilities != nil && ip.Capabilities.Elicitation != nil
}

// userAnswer is the user's answer to the confirmation form, when the call
// carries one: only an accepted true confirms; a decline, a cancel, false
// or an answer that is not a boolean does not.
func (c *call) userAnswer() (yes, answered bool) {
	if c.req.Params == nil || c.req.Params.InputResponses == nil {
		return false, false
	}
	r, ok := c.req.Params.InputResponses[confirmInput]
	if !ok {
		return false, false
	}
	res, ok := r.(*mcp.ElicitResult)
	if !ok || res.Action != "accept" {
		return false, true
	}
	v, ok := res.Content["confirm"].(bool)
	return ok && v, true
}

// client builds the client of this call; its events become progress
// notifications when the call asked for them.
func (c *call) client() (*client.Client, error) {
	var onEvent func(client.Event)
	if c.token != nil {
		onEvent = c.event
	}
	return c.cfg.Client(onEvent, !c.tool.Local)
}

// streamClient is the client of a live stream.
func (c *call) streamClient() (*client.Client, error) {
	if c.cfg.StreamClient == nil {
		return c.client()
	}
	cl, stop, err := c.cfg.StreamClient()
	if err != nil {
		return nil, err
	}
	c.stops = append(c.stops, stop)
	return cl, nil
}

// event turns a client event into a progress notification.
func (c *call) event(ev client.Event) {
	var what string
	switch ev.Kind {
	case client.EventAccepted:
		what = "accepted as " + ev.RequestID
	case client.EventPoll:
		what = fmt.Sprintf("%s · poll %d", orDefault(ev.Status, "waiting"), ev.Polls)
	case client.EventRetry:
		what = fmt.Sprintf("retrying in %s (%s)", round(ev.Delay), orDefault(ev.Reason, "transient failure"))
	case client.EventRateWait:
		what = fmt.Sprintf("rate limited, waiting %s", round(ev.Delay))
	case client.EventBreaker:
		what = fmt.Sprintf("breaker %s %s", ev.Resource, ev.BreakerState)
	default:
		return
	}
	c.notify(what)
}

// notify sends one progress notification with a growing progress value.
func (c *call) notify(what string) {
	if c.token == nil || c.req.Session == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx.Err() != nil {
		return // the call was cancelled: nothing more is sent for it
	}
	c.progress++
	c.lastNote = time.Now()
	msg := what
	if c.label != "" {
		msg = c.label + " · " + what
	}
	// A client that went away makes this fail; the call's context ends too.
	_ = c.req.Session.NotifyProgress(c.ctx, &mcp.ProgressNotificationParams{
		ProgressToken: c.token, Progress: c.progress, Message: msg,
	})
}

func (c *call) setLabel(format string, args ...any) {
	c.mu.Lock()
	c.label = fmt.Sprintf(format, args...)
	c.mu.Unlock()
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

func round(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// argError is a value the schema cannot judge: INVALID_ARGUMENT.
type argError struct {
	field string
	msg   string
}

func (e *argError) Error() string { return e.msg }

func invalidArgument(field, format string, args ...any) error {
	return &argError{field: field, msg: fmt.Sprintf(format, args...)}
}

// nonBlank is INVALID_ARGUMENT when a reference is empty or only spaces:
// an empty id or name would address the collection itself.
func nonBlank(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return invalidArgument(field, "%s must not be empty", field)
	}
	return nil
}
