package mcpserver

import (
	"sync"
)

// handoff is the answer of a call whose work outlived its call budget
// (docs/mcp-tools.md, "Long work"): a success that says the work goes on
// and names the tool call that picks it up.
type handoff struct {
	Status         string  `json:"status" jsonschema:"pending"`
	HandedOff      bool    `json:"handed_off" jsonschema:"true: the call's budget ended before the work did"`
	Playground     string  `json:"playground,omitempty"`
	RequestID      string  `json:"request_id,omitempty"`
	StatusURL      string  `json:"status_url,omitempty"`
	IdempotencyKey string  `json:"idempotency_key,omitempty"`
	WaitingFor     string  `json:"waiting_for" jsonschema:"What the call was waiting for, e.g. running"`
	Resume         *Resume `json:"resume"`
}

var handoffSchema = sync.OnceValue(schemaOf[handoff])
