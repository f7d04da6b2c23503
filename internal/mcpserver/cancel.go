package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// NoAnswerAfterCancel wraps a transport so that a request the client
// cancelled (notifications/cancelled) gets no response: the protocol says
// the server sends none, and the SDK writes one for every call. The work
// itself stops through the call's context, as before.
func NoAnswerAfterCancel(t mcp.Transport) mcp.Transport { return cancelFilter{t} }

type cancelFilter struct{ mcp.Transport }

func (f cancelFilter) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := f.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &cancelConn{Connection: c, cancelled: map[any]bool{}}, nil
}

// maxCancelled bounds the ids remembered: a cancel that came after its
// answer leaves an id no response will clear.
const maxCancelled = 1024

type cancelConn struct {
	mcp.Connection
	mu        sync.Mutex
	cancelled map[any]bool
}

func (c *cancelConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.Method == "notifications/cancelled" {
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil && p.RequestID != nil {
			if id, idErr := jsonrpc.MakeID(p.RequestID); idErr == nil {
				c.mu.Lock()
				if len(c.cancelled) >= maxCancelled {
					clear(c.cancelled)
				}
				c.cancelled[id.Raw()] = true
				c.mu.Unlock()
			}
		}
	}
	return msg, err
}

func (c *cancelConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		dropped := c.cancelled[resp.ID.Raw()]
		delete(c.cancelled, resp.ID.Raw())
		c.mu.Unlock()
		if dropped {
			return nil
		}
	}
	return c.Connection.Write(ctx, msg)
}
