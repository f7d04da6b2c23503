package cable

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// writeTimeout bounds one frame write, so a stalled reader cannot pin a
// goroutine forever.
const writeTimeout = 5 * time.Second

// session is one websocket connection.
type session struct {
	srv     *Server
	ws      *websocket.Conn
	cancel  context.CancelFunc
	start   time.Time
	changed chan struct{} // faults changed; buffered 1

	mu    sync.Mutex
	subs  map[string]context.CancelFunc
	terms map[string]*terminal // terminal subscriptions, by identifier
	wg    sync.WaitGroup
}

func newSession(srv *Server, ws *websocket.Conn, cancel context.CancelFunc) *session {
	return &session{
		srv:     srv,
		ws:      ws,
		cancel:  cancel,
		start:   time.Now(),
		changed: make(chan struct{}, 1),
		subs:    make(map[string]context.CancelFunc),
		terms:   make(map[string]*terminal),
	}
}

// run serves the connection: welcome, then pings, scheduled drops and
// commands until the connection ends.
func (c *session) run(ctx context.Context) {
	defer c.wg.Wait()
	defer c.cancel()
	if err := c.write(ctx, typedFrame{Type: "welcome"}); err != nil {
		_ = c.ws.CloseNow()
		return
	}
	c.goroutine(func() { c.pingLoop(ctx) })
	c.goroutine(func() { c.dropLoop(ctx) })
	c.readLoop(ctx)
	_ = c.ws.CloseNow()
}

func (c *session) goroutine(f func()) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		f()
	}()
}

// abort ends the connection without a close handshake, as a network
// failure would.
func (c *session) abort() {
	c.cancel()
	_ = c.ws.CloseNow()
}

func (c *session) faultsChanged() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *session) write(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	return c.ws.Write(wctx, websocket.MessageText, b)
}

func (c *session) readLoop(ctx context.Context) {
	for {
		_, data, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		var cmd command
		if json.Unmarshal(data, &cmd) != nil {
			continue // ActionCable ignores frames it cannot parse
		}
		switch cmd.Command {
		case "subscribe":
			if err := c.subscribe(ctx, cmd.Identifier); err != nil {
				return
			}
		case "unsubscribe":
			c.mu.Lock()
			if stop, ok := c.subs[cmd.Identifier]; ok {
				stop()
				delete(c.subs, cmd.Identifier)
			}
			delete(c.terms, cmd.Identifier)
			c.mu.Unlock()
		case "message":
			if err := c.message(ctx, cmd); err != nil {
				return
			}
		}
	}
}

// subscribe confirms or rejects one subscription and starts its stream.
// The confirm is written before the stream starts, so it always comes
// first on the wire.
func (c *session) subscribe(ctx context.Context, raw string) error {
	c.mu.Lock()
	_, dup := c.subs[raw]
	c.mu.Unlock()
	if dup {
		return nil // ActionCable ignores a repeated subscribe
	}
	var id identifier
	if json.Unmarshal([]byte(raw), &id) == nil && id.Channel == PlaygroundTerminalChannel {
		return c.subscribeTerminal(ctx, raw, id)
	}
	log, filter, ok := c.resolve(raw)
	if !ok || c.srv.rejectSubscribe() {
		c.srv.count(func(st *Stats) { st.Rejections++ })
		c.srv.cfg.Logf("cable: subscription rejected: %s", raw)
		return c.write(ctx, typedFrame{Type: "reject_subscription", Identifier: raw})
	}
	if err := c.write(ctx, typedFrame{Type: "confirm_subscription", Identifier: raw}); err != nil {
		return err
	}
	c.srv.count(func(st *Stats) { st.Subscriptions++ })
	sctx, stop := context.WithCancel(ctx)
	c.mu.Lock()
	c.subs[raw] = stop
	c.mu.Unlock()
	st := &stream{sess: c, identifier: raw, log: log, service: filter}
	next := st.firstSeq(id.Tail, id.Since)
	c.goroutine(func() { st.run(sctx, next) })
	return nil
}

// resolve validates an identifier and finds its playground's log.
func (c *session) resolve(raw string) (playgroundLog, string, bool) {
	var id identifier
	if err := json.Unmarshal([]byte(raw), &id); err != nil || c.srv.cfg.Lookup == nil {
		return playgroundLog{}, "", false
	}
	if id.Channel != PlaygroundLogsChannel && id.Channel != ContainerLogsChannel {
		return playgroundLog{}, "", false
	}
	pid, services, ok := c.srv.cfg.Lookup(id.playgroundRef())
	if !ok {
		return playgroundLog{}, "", false
	}
	filter := ""
	if id.Channel == ContainerLogsChannel {
		filter = id.ServiceName
		found := false
		for _, s := range services {
			found = found || s == filter
		}
		if !found {
			return playgroundLog{}, "", false
		}
	}
	return c.srv.logFor(pid, services), filter, true
}

func (c *session) pingLoop(ctx context.Context) {
	t := time.NewTicker(c.srv.cfg.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !c.srv.pingsOn() {
			continue
		}
		if c.write(ctx, typedFrame{Type: "ping", Message: time.Now().Unix()}) != nil {
			return
		}
		c.srv.count(func(st *Stats) { st.Pings++ })
	}
}

// dropLoop drops the connection when a DropAfter fault says so.
func (c *session) dropLoop(ctx context.Context) {
	for c.waitDrop(ctx) {
	}
}

// waitDrop waits for the current drop deadline; it reports whether to keep
// watching (the faults changed) or not (dropped, or the connection ended).
func (c *session) waitDrop(ctx context.Context) bool {
	var fire <-chan time.Time
	if at := c.srv.dropDeadline(c.start); !at.IsZero() {
		t := time.NewTimer(time.Until(at))
		defer t.Stop()
		fire = t.C
	}
	select {
	case <-ctx.Done():
		return false
	case <-c.changed:
		return true
	case <-fire:
		c.srv.count(func(st *Stats) { st.Drops++ })
		c.srv.cfg.Logf("cable: connection dropped (drop-after fault)")
		c.abort()
		return false
	}
}
