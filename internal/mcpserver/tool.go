package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
)

// Tool is one registered tool: its schemas, its hints and what it runs.
type Tool struct {
	Name        string
	Title       string
	Description string
	ReadOnly    bool // changes nothing
	Destructive bool // may change or take something down (the hint)
	Gated       bool // takes something down; needs "confirm": true
	Idempotent  bool // the same call again has no further effect
	Local       bool // touches only local state (no open world)

	Input  *jsonschema.Schema
	Output *jsonschema.Schema

	input *jsonschema.Resolved
	// run decodes the validated arguments and calls the client.
	run func(ctx context.Context, c *call, args json.RawMessage) (any, error)
}

// The common arguments (docs/mcp-tools.md: idempotency_key, wait, wait_timeout, confirm).
// Tool inputs embed them, so they appear in every schema that needs them.
type (
	mutationArgs struct {
		IdempotencyKey string `json:"idempotency_key,omitempty" jsonschema:"Idempotency-Key to send (1-255 printable ASCII characters, no spaces). Calling again with the same key replays the first answer instead of applying the change twice. Default: a fresh key for this call."`
	}
	waitArgs struct {
		Wait        *bool `json:"wait,omitempty" jsonschema:"Wait for the async operation to finish (default true). With false the result is the handle {request_id, status, status_url}; resume with fibe_ops_wait."`
		WaitTimeout int   `json:"wait_timeout,omitempty" jsonschema:"How long to wait, in seconds (default 300, at most 1800). On timeout the error is ASYNC_TIMEOUT and its resume names fibe_ops_wait."`
		budgetArgs
	}
	budgetArgs struct {
		CallBudget *int `json:"call_budget,omitempty" jsonschema:"Seconds this call may wait before it answers with a hand-off handle {status: pending, handed_off: true, resume} instead (0: no budget; default: the server's, 50). Only applies when shorter than the wait's timeout."`
	}
	confirmArgs struct {
		Confirm bool `json:"confirm,omitempty" jsonschema:"Must be true: this tool takes something down."`
	}
)

const (
	defaultWait = reliability.DefaultPollTimeout
	maxWaitSecs = 30 * 60
)

// spec is what a tool definition says besides its typed run function.
type spec struct {
	name, title, desc string
	readOnly          bool
	destructive       bool
	ungated           bool // destructive in the hint's sense, but not taking anything down
	idempotent        bool
	local             bool
	output            *jsonschema.Schema
	// tweak adjusts the inferred input schema (enums, ranges, defaults).
	tweak func(*jsonschema.Schema)
}

// define builds a Tool whose input schema is inferred from In. run gets
// the decoded arguments; what it returns is the tool's result.
func define[In any](s spec, run func(ctx context.Context, c *call, in *In) (any, error)) *Tool {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", s.name, err))
	}
	return defineWith(s, in, func() *In { return new(In) }, run)
}

// defineWith builds a Tool from an input schema built beforehand (the
// generated tools' schemas come from a resource's description). newIn
// makes the value the arguments are decoded into; prepare checks it, then
// run gets it.
func defineWith[In any](s spec, in *jsonschema.Schema, newIn func() *In, run func(ctx context.Context, c *call, in *In) (any, error)) *Tool {
	if in.Properties == nil {
		in.Properties = map[string]*jsonschema.Schema{}
	}
	commonRanges(in)
	if s.tweak != nil {
		s.tweak(in)
	}
	resolved, err := in.Resolve(nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: resolve input schema: %v", s.name, err))
	}
	return &Tool{
		Name: s.name, Title: s.title, Description: s.desc,
		ReadOnly: s.readOnly, Destructive: s.destructive, Gated: s.destructive && !s.ungated, Idempotent: s.idempotent, Local: s.local,
		Input: in, Output: s.output, input: resolved,
		run: func(ctx context.Context, c *call, raw json.RawMessage) (any, error) {
			v := newIn()
			if err := json.Unmarshal(raw, v); err != nil {
				return nil, invalidParams("invalid arguments: %v", err)
			}
			if err := c.prepare(v); err != nil {
				return nil, err
			}
			return run(ctx, c, v)
		},
	}
}

// commonRanges puts the ranges and defaults of the common arguments into a
// schema that has them. idempotency_key stays a plain string: its rules are
// checked by the CLI's own validator (INVALID_ARGUMENT), not the schema.
func commonRanges(s *jsonschema.Schema) {
	if p := s.Properties["wait_timeout"]; p != nil {
		p.Minimum, p.Maximum = ptr(1.0), ptr(float64(maxWaitSecs))
		p.Default = json.RawMessage(`300`)
	}
	if p := s.Properties["call_budget"]; p != nil {
		p.Types, p.Type = nil, "integer"
		p.Minimum, p.Maximum = ptr(0.0), ptr(float64(maxWaitSecs))
	}
	if p := s.Properties["wait"]; p != nil {
		p.Types, p.Type = nil, "boolean"
		p.Default = json.RawMessage(`true`)
	}
}

func ptr[T any](v T) *T { return &v }

// enum restricts a string property to values.
func enum(s *jsonschema.Schema, prop string, values ...string) {
	p := s.Properties[prop]
	p.Enum = make([]any, len(values))
	for i, v := range values {
		p.Enum[i] = v
	}
}

// mcpTool is the protocol description of t.
func (t *Tool) mcpTool() *mcp.Tool {
	open := !t.Local
	a := &mcp.ToolAnnotations{
		Title:           t.Title,
		ReadOnlyHint:    t.ReadOnly,
		DestructiveHint: ptr(t.Destructive),
		IdempotentHint:  t.Idempotent,
		OpenWorldHint:   &open,
	}
	mt := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, Annotations: a, InputSchema: t.Input}
	if t.Output != nil {
		mt.OutputSchema = orError(t.Output)
	}
	return mt
}

// orError is the output schema a client sees: the success's, or the error
// document. MCP clients validate the structuredContent of failures too, so
// the schema admits {"error": {...}}; it stays an object schema at the top.
func orError(s *jsonschema.Schema) *jsonschema.Schema {
	if s.Type == "object" && len(s.AnyOf) > 0 && len(s.Properties) == 0 {
		out := *s
		out.AnyOf = append(append([]*jsonschema.Schema(nil), s.AnyOf...), errorSchema())
		return &out
	}
	return &jsonschema.Schema{Type: "object", AnyOf: []*jsonschema.Schema{s, errorSchema()}}
}

// errorSchema is the error document of a failed call (docs/errors.md).
var errorSchema = sync.OnceValue(func() *jsonschema.Schema {
	str := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: d} }
	return &jsonschema.Schema{Type: "object", Required: []string{"error"}, Properties: map[string]*jsonschema.Schema{
		"error": {Type: "object", Required: []string{"code", "message"}, Properties: map[string]*jsonschema.Schema{
			"code":            str("The error code, e.g. RESOURCE_NOT_FOUND (docs/errors.md)"),
			"message":         str("What went wrong"),
			"status":          {Types: []string{"integer", "null"}, Description: "The HTTP status, if an answer came"},
			"request_id":      {Types: []string{"string", "null"}, Description: "The API's request id"},
			"details":         {Description: "The API's details, or {\"field\"} for INVALID_ARGUMENT"},
			"retryable":       {Type: "boolean"},
			"idempotency_key": {Types: []string{"string", "null"}},
			"resume":          {Types: []string{"object", "null"}, Description: "The tool call that continues: {tool, arguments}"},
		}},
	}}
})

// invalidParams is the protocol error of a call the schema rejects.
func invalidParams(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// handler runs one call of t: schema check, then the tool, then the result.
func (t *Tool) handler(cfg *Config) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.Arguments
		if len(raw) == 0 || string(raw) == "null" {
			raw = json.RawMessage(`{}`)
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, invalidParams("%s: arguments are not JSON: %v", t.Name, err)
		}
		if _, ok := doc.(map[string]any); !ok {
			return nil, invalidParams("%s: arguments must be an object", t.Name)
		}
		if err := t.input.Validate(doc); err != nil {
			return nil, invalidParams("%s: %s", t.Name, schemaMessage(err))
		}
		c := newCall(ctx, cfg, t, req, raw)
		defer c.close()
		out, err := t.run(ctx, c, raw)
		if rpcErr, ok := err.(*jsonrpc.Error); ok {
			return nil, rpcErr
		}
		if ask, ok := err.(*askUser); ok {
			return ask.result(), nil
		}
		if c.budgeted && client.IsAsyncTimeout(err) {
			out, err = c.handoff(err), nil // the budget ended first: the work goes on
		}
		if err != nil {
			return errorResult(c, err), nil
		}
		return successResult(c, out)
	}
}

// schemaMessage shortens the validator's message to what names the field:
// "validating root: validating /properties/wait_timeout: maximum: ..." →
// "wait_timeout: maximum: ...".
func schemaMessage(err error) string {
	msg := err.Error()
	msg = strings.ReplaceAll(msg, "validating root: ", "")
	msg = strings.ReplaceAll(msg, "validating /properties/", "")
	msg = strings.ReplaceAll(msg, "required: missing properties", "missing required arguments")
	return "invalid arguments: " + msg
}

// validKey checks an idempotency_key argument as --idempotency-key is.
func validKey(key string) error {
	if key == "" {
		return nil
	}
	if err := reliability.ValidateIdempotencyKey(key); err != nil {
		return invalidArgument("idempotency_key", "invalid idempotency_key: %v", err)
	}
	return nil
}

// mutation returns the options of a mutation call.
func (m mutationArgs) options() client.MutationOptions {
	return client.MutationOptions{IdempotencyKey: m.IdempotencyKey}
}

// options returns the wait options of a call. A call budget shorter than
// the wait's timeout becomes the timeout, and the call remembers that an
// ASYNC_TIMEOUT is then its budget's end: a hand-off, not an error.
func (w waitArgs) options(c *call) client.WaitOptions {
	wo := client.WaitOptions{Timeout: defaultWait}
	if w.WaitTimeout > 0 {
		wo.Timeout = time.Duration(w.WaitTimeout) * time.Second
	}
	if w.Wait != nil && !*w.Wait {
		wo.NoWait = true
	}
	budget := c.cfg.CallBudget
	if w.CallBudget != nil {
		budget = time.Duration(*w.CallBudget) * time.Second
	}
	if !wo.NoWait && budget > 0 && budget < wo.Timeout {
		wo.Timeout = budget
		c.budgeted = true
	}
	return wo
}
