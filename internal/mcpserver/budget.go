package mcpserver

import (
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// Long work (docs/mcp-tools.md, "Long work"): MCP clients give up on a call
// after their own timeout and drop the answer that comes later, so a call
// that waits answers by its budget at the latest, and tells the client it
// is alive while it waits.

// DefaultCallBudget is the call budget when neither the call nor the
// server says otherwise (setting mcp.call_budget).
const DefaultCallBudget = 50 * time.Second

// DefaultHeartbeat is the longest a waiting call stays silent when it
// asked for progress.
const DefaultHeartbeat = 10 * time.Second

// handoff is the answer of a call whose work outlived its call budget: a
// success that says the work goes on and names the tool call that picks
// it up.
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

// handoff turns the ASYNC_TIMEOUT that ended the call's budget into the
// hand-off handle: wait on the operation when there is one, on the
// playground's state when that is what the call waited for, else call the
// same tool again with the same key (a mutation still in flight).
func (c *call) handoff(err error) *handoff {
	ce, _ := client.AsError(err)
	h := &handoff{Status: "pending", HandedOff: true, IdempotencyKey: ce.IdempotencyKey}
	if h.IdempotencyKey == "" && c.resp != nil {
		h.IdempotencyKey = c.resp.IdempotencyKey // a create that went on to wait for its playground
	}
	if h.IdempotencyKey != "" {
		// Kept past the journal window: calling again resumes this one.
		if cl, err := c.client(); err == nil {
			cl.HandOff(h.IdempotencyKey)
		}
	}
	pg, _ := ce.Details["playground"].(string)
	waitingFor, _ := ce.Details["waiting_for"].(string)
	switch {
	case ce.AsyncRequestID != "":
		h.RequestID = ce.AsyncRequestID
		h.WaitingFor = "the operation to finish"
		h.Resume = &Resume{Tool: "fibe_ops_wait", Arguments: map[string]any{"request_id": ce.AsyncRequestID}}
		if c.resp != nil && c.resp.Accepted != nil && c.resp.Accepted.RequestID == ce.AsyncRequestID {
			h.StatusURL = c.resp.Accepted.StatusURL
		}
	case pg != "" && waitingFor != "":
		h.Playground, h.WaitingFor = pg, waitingFor
		h.Resume = &Resume{Tool: "fibe_playgrounds_wait", Arguments: map[string]any{"playground": pg, "for": waitingFor}}
	default:
		h.WaitingFor = "the server's answer"
		h.Resume = toolResume(c.tool.Name, c.args, ce.Resume)
	}
	return h
}

// heartbeat sends a progress notification whenever the call has been
// silent for the heartbeat interval, until stop is called.
func (c *call) heartbeat() (stop func()) {
	every := c.cfg.Heartbeat
	if every <= 0 {
		every = DefaultHeartbeat
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTimer(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-c.ctx.Done():
				return
			case <-t.C:
			}
			c.mu.Lock()
			quiet := time.Since(c.lastNote)
			c.mu.Unlock()
			if quiet >= every {
				c.notify("still waiting")
				quiet = 0
			}
			t.Reset(every - quiet)
		}
	}()
	return func() { close(done) }
}
