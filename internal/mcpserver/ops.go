package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// ---- async operations

type opsGetIn struct {
	RequestID string `json:"request_id" jsonschema:"The request_id of an accepted (202) operation"`
}

func (in opsGetIn) validate() error { return nonBlank("request_id", in.RequestID) }

// opStatus is what `fibe ops get --json` prints.
type opStatus struct {
	RequestID string          `json:"request_id"`
	Status    string          `json:"status"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     map[string]any  `json:"error,omitempty"`
}

func opsGet() *Tool {
	return define(spec{name: "fibe_ops_get", title: "Look at an async operation", readOnly: true,
		desc:   "One look at an async operation: {request_id, status, result?, error?}. Same as `fibe ops get --json`.",
		output: anyObject()},
		func(ctx context.Context, c *call, in *opsGetIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			st, _, err := cl.Async.Get(ctx, in.RequestID)
			if err != nil {
				return nil, err
			}
			return opDocument(in.RequestID, st), nil
		})
}

type opsWaitIn struct {
	RequestID string `json:"request_id" jsonschema:"The request_id of an accepted (202) operation"`
	Timeout   int    `json:"timeout,omitempty" jsonschema:"How long to wait, in seconds (default 300, at most 1800)"`
	budgetArgs
}

func (in opsWaitIn) validate() error { return nonBlank("request_id", in.RequestID) }

func opsWait() *Tool {
	return define(spec{name: "fibe_ops_wait", title: "Wait for an async operation", readOnly: true,
		desc: "Wait for an async operation to finish and return its result, exactly as the tool that started it would have. " +
			"Same as `fibe ops wait --json`.",
		output: orHandoff(anyObject()),
		tweak: func(s *jsonschema.Schema) {
			s.Properties["timeout"].Minimum, s.Properties["timeout"].Maximum = ptr(1.0), ptr(float64(maxWaitSecs))
			s.Properties["timeout"].Default = json.RawMessage(`300`)
		}},
		func(ctx context.Context, c *call, in *opsWaitIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("waiting for %s", in.RequestID)
			result, _, err := cl.Async.Wait(ctx, in.RequestID, waitArgs{WaitTimeout: in.Timeout, budgetArgs: in.budgetArgs}.options(c))
			if err != nil {
				return nil, err
			}
			if len(result) == 0 {
				result = json.RawMessage(`{}`)
			}
			return result, nil
		})
}
