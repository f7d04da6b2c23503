package mcpserver

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioTransport is the transport of `fibe mcp serve` over stdin and
// stdout. A cancelled call gets no answer (NoAnswerAfterCancel), and a
// call read before stdin closed that ends within endOfInputGrace gets its
// answer before the server ends: a script may write its requests and
// close stdin at once (`printf ... | fibe mcp serve`), and the SDK, on its
// own, ends the session at end of input with those calls still running,
// so their answers were lost. The grace is short because closing stdin is
// also how an MCP client shuts its server down: a long wait is then
// cancelled (docs/mcp-tools.md, "End of input").
func StdioTransport(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	// The drain sits outside the cancel filter, so it also sees the
	// answers that filter drops: a cancelled call is settled too.
	return answerBeforeEOF{NoAnswerAfterCancel(&mcp.IOTransport{Reader: in, Writer: out})}
}

type answerBeforeEOF struct{ mcp.Transport }

func (t answerBeforeEOF) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainConn{Connection: c, open: map[any]bool{}}
	d.settled = sync.NewCond(&d.mu)
	return d, nil
}

// endOfInputGrace bounds how long the end of input waits for the calls
// still running.
const endOfInputGrace = 2 * time.Second

// drainConn counts the calls read and not yet answered; at end of input
// its Read waits until none is left, or endOfInputGrace has passed,
// before reporting the end.
type drainConn struct {
	mcp.Connection
	mu      sync.Mutex
	settled *sync.Cond
	open    map[any]bool
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.IsCall() {
		c.mu.Lock()
		c.open[req.ID.Raw()] = true
		c.mu.Unlock()
	}
	if err != nil && errors.Is(err, io.EOF) {
		grace, cancel := context.WithTimeout(ctx, endOfInputGrace)
		c.waitSettled(grace)
		cancel()
	}
	return msg, err
}

// waitSettled returns once every call read has been answered, or ctx
// ends.
func (c *drainConn) waitSettled(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		c.settled.Broadcast()
		c.mu.Unlock()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.open) > 0 && ctx.Err() == nil {
		c.settled.Wait()
	}
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		delete(c.open, resp.ID.Raw())
		if len(c.open) == 0 {
			c.settled.Broadcast()
		}
		c.mu.Unlock()
	}
	return err
}
