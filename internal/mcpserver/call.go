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
	if c.tool.Gated && !c.cfg.Yes {
		if cf, ok := in.(confirmed); !ok || !cf.confirmed() {
			return invalidArgument("confirm", "%s takes something down: call it again with \"confirm\": true if that is what you mean", c.tool.Name)
		}
	}
	return nil
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
