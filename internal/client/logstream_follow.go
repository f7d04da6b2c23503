package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// follower keeps one log stream up. Its state belongs to the run loop;
// connection readers and the connecting goroutine only post to it.
type follower struct {
	c          *Client
	opts       FollowOptions
	emit       func(LogLine) error
	playground int64
	resource   string // breaker resource: marquee/<name>
	httpClient *http.Client

	budget *budget // the retry budget, shared by (re)connects until progress

	events chan connEvent
	dialed chan dialResult
	wg     sync.WaitGroup

	gen        int
	conns      map[int]*cableConn // current and retiring connections
	current    *cableConn         // the newest connection; nil while connecting
	connecting bool

	last        int64 // seq of the last line emitted
	emitted     bool
	expiryTried bool // "already tried": one recovery per expiry
	recoveries  int
	ignored     int // expiry messages ignored while a recovery was under way
	ignoredNow  int // the same, for the current recovery
	duplicates  int // replayed lines dropped because they were already emitted
}

// cableConn is one websocket connection carrying our subscription.
type cableConn struct {
	gen        int
	ws         *websocket.Conn
	identifier string
	stop       context.CancelFunc // ends its reader
	recovery   bool               // opened to recover from session_expired
	confirmed  bool
	progressed bool      // a line or a ping arrived after the confirm
	beat       time.Time // last welcome or ping
}

// connEvent is one frame (or the end) of connection gen.
type connEvent struct {
	gen   int
	frame cableFrame
	err   error // the connection ended
}

type dialResult struct {
	conn *cableConn
	err  error
}

func newFollower(ctx context.Context, c *Client, ref string, opts FollowOptions, emit func(LogLine) error) (*follower, error) {
	if opts.PingInterval <= 0 {
		opts.PingInterval = DefaultPingInterval
	}
	pg, _, err := c.Playgrounds.Get(ctx, ref)
	if err != nil {
		return nil, err
	}
	f := &follower{
		c: c, opts: opts, emit: emit, playground: pg.ID,
		resource:   c.cachedPlaygroundResource(strconv.FormatInt(pg.ID, 10)),
		httpClient: dialHTTPClient(c),
		budget:     c.newBudget(),
		events:     make(chan connEvent, 64),
		dialed:     make(chan dialResult, 1),
		conns:      map[int]*cableConn{},
		last:       opts.Since,
	}
	if pg.MarqueeName != "" {
		f.resource = marqueeResource(pg.MarqueeName)
	}
	return f, nil
}

// identifier is the subscription for the next connection: after the last
// line emitted when there is one, else as the caller asked. A reconnect
// before any line arrived cannot resume exactly: the protocol tells the
// client no sequence number until a line comes, so lines produced between
// the first subscription and the reconnect may be missed (the window is
// the reconnect delay; a stream with a Since cursor is not affected).
func (f *follower) identifier() string {
	id := logIdentifier{Channel: playgroundLogsChannel, PlaygroundID: f.playground}
	if f.opts.Service != "" {
		id.Channel, id.ServiceName = containerLogsChannel, f.opts.Service
	}
	switch {
	case f.emitted || f.opts.Since > 0:
		since := f.last
		id.Since = &since
	case f.opts.Tail > 0:
		id.Tail = f.opts.Tail
	}
	return id.String()
}

func (f *follower) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer f.shutdown(cancel)
	f.startConnect(ctx, nil, false, "connect")

	check := time.NewTicker(max(f.opts.PingInterval/4, time.Millisecond))
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return f.cancelled(ctx)
		case r := <-f.dialed:
			f.connecting = false
			if spent, ok := r.err.(budgetSpent); ok {
				return f.giveUp(spent.last)
			}
			if r.err != nil {
				return r.err
			}
			f.adopt(ctx, r.conn)
		case ev := <-f.events:
			if err := f.handle(ctx, ev); err != nil {
				return err
			}
		case <-check.C:
			f.checkStale(ctx)
		}
	}
}

// startConnect opens the next connection in the background, so the loop
// keeps reading (and emitting from) the connection it replaces. drop is
// the failure that ended the previous connection, nil for the first
// connection and for an expiry recovery (which does not wait).
func (f *follower) startConnect(ctx context.Context, drop *Error, recovery bool, why string) {
	if f.connecting {
		return
	}
	f.connecting = true
	identifier := f.identifier()
	why = fmt.Sprintf("%s (resuming after seq %d)", why, f.last)
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		ws, err := f.connect(ctx, identifier, drop, why)
		if err != nil {
			f.dialed <- dialResult{err: err}
			return
		}
		f.dialed <- dialResult{conn: &cableConn{ws: ws, identifier: identifier, recovery: recovery}}
	}()
}

// adopt makes a fresh connection the current one and starts its reader.
func (f *follower) adopt(ctx context.Context, conn *cableConn) {
	f.gen++
	conn.gen, conn.beat = f.gen, time.Now()
	rctx, stop := context.WithCancel(ctx)
	conn.stop = stop
	f.conns[conn.gen] = conn
	f.current = conn
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		f.read(rctx, conn)
	}()
}

// read posts conn's frames to the loop until the connection ends.
func (f *follower) read(ctx context.Context, conn *cableConn) {
	for {
		_, data, err := conn.ws.Read(ctx)
		ev := connEvent{gen: conn.gen, err: err}
		if err == nil {
			fr, ok := parseFrame(data, conn.identifier)
			if !ok {
				continue // ActionCable clients skip frames they cannot parse
			}
			ev.frame = fr
		}
		select {
		case f.events <- ev:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// handle applies one connection event.
func (f *follower) handle(ctx context.Context, ev connEvent) error {
	conn, ok := f.conns[ev.gen]
	if !ok {
		return nil // a connection already retired
	}
	current := conn == f.current
	if ev.err != nil {
		f.retire(conn)
		if !current {
			return nil
		}
		if ctx.Err() != nil {
			return f.cancelled(ctx)
		}
		drop := f.dropError(ev.err)
		f.c.trace.printf("stream: connection dropped: %s", drop.Message)
		f.current = nil
		f.startConnect(ctx, drop, false, "connection dropped")
		return nil
	}
	switch fr := ev.frame; fr.kind {
	case frameWelcome:
		conn.beat = time.Now()
	case framePing:
		conn.beat = time.Now()
		if conn.confirmed && !conn.progressed {
			conn.progressed = true
			f.progress()
		}
	case frameConfirm:
		if !current {
			return nil
		}
		conn.confirmed = true
		if f.expiryTried {
			f.expiryTried = false
			f.c.trace.printf("stream: subscription confirmed: %s; expiry recovery done (%d expiry messages ignored meanwhile)",
				conn.identifier, f.ignoredNow)
		} else {
			f.c.trace.printf("stream: subscription confirmed: %s", conn.identifier)
		}
		for _, old := range f.conns {
			if old != conn {
				f.retire(old)
			}
		}
	case frameReject:
		if !current {
			return nil
		}
		return &Error{Code: CodeForbidden, Resource: f.resource,
			Message: fmt.Sprintf("the server rejected the log subscription of playground %d", f.playground),
			Details: map[string]any{"channel": conn.identifier, "last_seq": f.last}}
	case frameLog:
		return f.line(conn, fr.line)
	case frameExpired:
		return f.expired(ctx, conn, current)
	case frameDisconnect:
		if !current {
			return nil
		}
		if !fr.reconnect {
			code := CodeNetwork
			if fr.reason == "unauthorized" {
				code = CodeUnauthorized
			}
			return &Error{Code: code, Resource: f.resource, Message: "the server closed the log stream: " + oneLine(fr.reason),
				Details: map[string]any{"reason": fr.reason, "last_seq": f.last}}
		}
		f.retire(conn)
		f.current = nil
		drop := &Error{Code: CodeNetwork, Message: "server disconnected: " + oneLine(fr.reason), Resource: f.resource}
		f.startConnect(ctx, drop, false, "server disconnected ("+oneLine(fr.reason)+")")
	}
	return nil
}

// line emits a line unless it was emitted already (a replay overlaps what
// the previous connection delivered).
func (f *follower) line(conn *cableConn, l LogLine) error {
	if (f.emitted || f.opts.Since > 0) && l.Seq <= f.last {
		f.duplicates++
		return nil
	}
	if err := f.emit(l); err != nil {
		return err
	}
	f.last, f.emitted = l.Seq, true
	if conn.confirmed && !conn.progressed {
		conn.progressed = true
	}
	f.progress()
	return nil
}

// expired applies contract §7: one recovery per expiry, with the flag set
// until a subscription is confirmed again.
func (f *follower) expired(ctx context.Context, conn *cableConn, current bool) error {
	if f.expiryTried || !current {
		f.ignored++
		f.ignoredNow++
		if f.ignoredNow == 1 {
			f.c.trace.printf("stream: session_expired ignored: recovery already under way (further ones counted)")
		}
		return nil
	}
	if conn.recovery && !conn.progressed {
		return &Error{Code: CodeUnauthorized, Resource: f.resource,
			Message: "the log stream session expired again right after a fresh one was opened; check the API key (`fibe auth status`)",
			Details: map[string]any{"reason": statusSessionExpired, "recoveries": f.recoveries,
				"ignored_expiries": f.ignored, "last_seq": f.last}}
	}
	f.expiryTried = true
	f.recoveries++
	f.ignoredNow = 0
	f.c.trace.printf("stream: session_expired: recovering once (fresh cable URL, reconnect, resubscribe)")
	f.startConnect(ctx, nil, true, "session expired")
	return nil
}

// checkStale reconnects when the current connection missed two pings.
func (f *follower) checkStale(ctx context.Context) {
	conn := f.current
	if conn == nil || time.Since(conn.beat) <= 2*f.opts.PingInterval {
		return
	}
	f.retire(conn)
	f.current = nil
	f.c.trace.printf("stream: no ping for two intervals (%s); dropping the connection", (2 * f.opts.PingInterval).String())
	f.startConnect(ctx, f.dropError(errStale), false, "no ping for two intervals")
}

// retire closes a connection and forgets it.
func (f *follower) retire(conn *cableConn) {
	if _, ok := f.conns[conn.gen]; !ok {
		return
	}
	delete(f.conns, conn.gen)
	conn.stop()
	_ = conn.ws.CloseNow()
}

func (f *follower) cancelled(ctx context.Context) error {
	e := f.c.cancelled(ctx, f.request())
	e.Message = "log stream interrupted"
	e.Details = map[string]any{"last_seq": f.last}
	return e
}

// shutdown stops every goroutine and closes every connection.
func (f *follower) shutdown(cancel context.CancelFunc) {
	cancel()
	for _, conn := range f.conns {
		f.retire(conn)
	}
	f.wg.Wait()
	select {
	case r := <-f.dialed:
		if r.conn != nil {
			_ = r.conn.ws.CloseNow()
		}
	default:
	}
	f.c.trace.printf("stream: ended after seq %d (%d expiry recoveries, %d expiry messages ignored, %d replayed lines dropped)",
		f.last, f.recoveries, f.ignored, f.duplicates)
}
