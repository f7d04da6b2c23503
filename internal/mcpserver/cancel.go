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
// itself stops through the call's context, as before. Over streamable HTTP
// the SDK's handler owns its transports, so the same rule is kept there by
// endStreamOnCancel instead (docs/mcp-tools.md, "Cancellation").
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

// endStreamOnCancel is the streamable HTTP side of NoAnswerAfterCancel, a
// receiving middleware. The SDK writes a call's response on the event
// stream of the POST that carried the call, even after the client sent
// notifications/cancelled for it. When a call returns after the client
// cancelled it (its context's cause is a plain context.Canceled: the SDK's
// reaction to notifications/cancelled; a closing session has a cause of
// its own), the stream is ended first, without the response. The SDK then
// has nowhere to deliver the response (no event store is configured, so
// nothing is kept for a resumption either) and drops it. Over stdio the
// request carries no CloseSSEStream and nothing changes here.
func endStreamOnCancel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if ctx.Err() != nil && context.Cause(ctx) == context.Canceled {
			if extra := req.GetExtra(); extra != nil && extra.CloseSSEStream != nil {
				extra.CloseSSEStream(mcp.CloseSSEStreamArgs{})
			}
		}
		return res, err
	}
}
