package stream

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/fibegg/fibe/internal/client"
)

// Relay keeps docs/contract.md §6 and §7 for a stream whose connections
// someone else asks for, one at a time: the web console relays one API
// connection per browser connection, and the browser asks for the next
// one after a drop or an expiry (it makes the one-shot expiry recovery
// itself). Every connection a Relay opens, the first and every reopen, is
// admitted by the marquee's breaker and counted on one retry budget kept
// across them, as the keeper's reconnects are; a connection that ended
// without progress (a drop, silence for two ping intervals, a session
// that expired before making progress, a refused renewal) is counted when
// the next one is asked for, which first waits its backoff. Once the
// budget is spent, Open fails with the error the CLI gives for the same
// stream. Progress (a log line, or a confirmed subscription that stayed
// up one ping interval) gives the budget back.
//
// A Relay is safe for concurrent use; its connections are read by one
// goroutine each.
type Relay struct {
	c    *client.Client
	pg   *client.Playground
	logs bool // a log stream (its lines are progress); else a terminal

	mu       sync.Mutex
	budget   *client.StreamBudget // made at the first Open (the marquee may be learned by then)
	pending  *client.Error        // ended the previous connection without progress; counted by the next Open
	interval time.Duration        // liveness: the server's ping period as seen
	// confirmed: a connection of this stream was confirmed; a refusal is
	// then a refused renewal, not a refusal of the stream.
	confirmed bool
}

// NewRelay returns the Relay of one stream of playground id: its log
// stream (logs) or its terminal. ping is the liveness interval until the
// server has shown its own (0 → 3s).
func NewRelay(c *client.Client, playground int64, logs bool, ping time.Duration) *Relay {
	if ping <= 0 {
		ping = DefaultPingInterval
	}
	return &Relay{c: c, pg: &client.Playground{ID: playground}, logs: logs, interval: ping}
}

func (r *Relay) what() string {
	if r.logs {
		return "log stream"
	}
	return "terminal"
}

// Interval is the liveness interval in use: the server's ping period as
// seen, DefaultPingInterval until two pings were seen.
func (r *Relay) Interval() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.interval
}

// Retries is how many reopens without progress the budget allows.
func (r *Relay) Retries() int {
	return r.c.NewStreamBudget("").Retries()
}

// Open opens the next connection, subscribed to identifier. It first
// counts the failure that ended the previous connection, if any (waiting
// its backoff), then connects through the retry loop on the stream's
// budget. Its error is the stream's end: CIRCUIT_OPEN when the breaker
// holds the connection back (nothing is sent), the spent budget's error
// (SESSION_EXPIRED for expiries, else the last drop's), CANCELLED, or the
// handshake's own.
func (r *Relay) Open(ctx context.Context, identifier string) (*RelayConn, error) {
	r.mu.Lock()
	if r.budget == nil {
		r.budget = r.c.NewStreamBudget(r.c.StreamResource(r.pg))
	}
	b, failure, interval := r.budget, r.pending, r.interval
	r.pending = nil
	r.mu.Unlock()
	why := "connect"
	if failure != nil {
		why = "reopen after: " + failure.Message
	}
	ws, err := dial(ctx, r.c, b, identifier, failure, why)
	if spent, ok := err.(budgetSpent); ok {
		return nil, spentError(r.what(), b, spent.last, map[string]any{"playground_id": r.pg.ID})
	}
	if err != nil {
		return nil, err
	}
	now := time.Now()
	rc := &RelayConn{r: r, b: b, ws: ws, identifier: identifier, opened: now, beat: now,
		events: make(chan connEvent, 64), interval: interval, confirm: b.AttemptTimeout(),
		check: time.NewTicker(max(interval/4, time.Millisecond)), every: interval / 4}
	rctx, stop := context.WithCancel(context.Background())
	rc.stop = stop
	rc.wg.Add(1)
	go func() {
		defer rc.wg.Done()
		readConn(rctx, &conn{ws: ws, identifier: identifier}, rc.events)
	}()
	return rc, nil
}

// failed notes what ended a connection without progress, for the next
// Open to count.
func (r *Relay) failed(e *client.Error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = e
}

func (r *Relay) setInterval(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.interval = d
}

// RelayEvent is what a relayed connection passes on.
type RelayEvent struct {
	Kind    RelayKind
	Message json.RawMessage // RelayMessage: the channel's payload
}

// RelayKind is the kind of a RelayEvent.
type RelayKind int

// Relay event kinds.
const (
	RelayConfirmed RelayKind = iota + 1 // the subscription is confirmed
	RelayMessage                        // a message of the channel
	RelayExpired                        // session_expired: the far side recovers once
)

// RelayConn is one relayed connection: Next reads it, Send writes it.
type RelayConn struct {
	r          *Relay
	b          *client.StreamBudget
	ws         *websocket.Conn
	identifier string
	events     chan connEvent
	stop       context.CancelFunc
	wg         sync.WaitGroup
	// check runs tick every quarter interval, between calls of Next too:
	// a stream whose frames never pause is still watched.
	check *time.Ticker
	every time.Duration

	// Owned by the goroutine calling Next.
	opened, beat, confirmedAt time.Time
	confirmed, progressed     bool
	expired                   bool // an expiry was seen (and counted, unless progressed)
	interval, confirm         time.Duration
	pings                     pinger
	lastTick                  time.Time
	graced                    bool
	again                     bool
}

// Next returns the next event, or the error that ended the connection.
// After an error, Reopen says whether the far side should ask for the
// next connection (a drop, silence, a refused renewal: counted on the
// budget, which decides at the next Open) or stop (the error is final:
// the first subscription refused, the server's disconnect without
// reconnect, the caller's cancellation).
func (rc *RelayConn) Next(ctx context.Context) (RelayEvent, error) {
	for {
		select {
		case <-ctx.Done():
			return RelayEvent{}, rc.b.Cancelled(ctx)
		case ev := <-rc.events:
			out, err := rc.handle(ev)
			if err != nil || out.Kind != 0 {
				return out, err
			}
		case <-rc.check.C:
			if err := rc.tick(); err != nil {
				return RelayEvent{}, err
			}
			if e := rc.interval / 4; e != rc.every {
				rc.every = e
				rc.check.Reset(max(e, time.Millisecond))
			}
		}
	}
}

// Reopen reports whether the error Next returned asks for another
// connection.
func (rc *RelayConn) Reopen() bool { return rc.again }

// handle applies one frame; a zero event means nothing to pass on.
func (rc *RelayConn) handle(ev connEvent) (RelayEvent, error) {
	if ev.err != nil {
		drop := rc.b.TransportError(ev.err, false)
		drop.Retryable = true
		rc.r.c.Tracef("stream: relayed connection dropped: %s", drop.Message)
		return RelayEvent{}, rc.lost(drop)
	}
	if ev.at.After(rc.beat) {
		rc.beat = ev.at
	}
	switch fr := ev.frame; fr.kind {
	case framePing:
		rc.interval = rc.pings.seen(ev.at, rc.interval)
		rc.r.setInterval(rc.interval)
	case frameConfirm:
		if !rc.confirmed {
			rc.confirmed, rc.confirmedAt = true, time.Now()
			rc.r.mu.Lock()
			rc.r.confirmed = true
			rc.r.mu.Unlock()
			rc.r.c.Tracef("stream: relayed subscription confirmed: %s", traceable(rc.identifier))
			return RelayEvent{Kind: RelayConfirmed}, nil
		}
	case frameReject:
		if !rc.confirmed && rc.isFirst() {
			rc.again = false
			return RelayEvent{}, &client.Error{Code: client.CodeForbidden, Resource: rc.resource(),
				Message: "the server rejected the " + rc.r.what() + " subscription",
				Details: map[string]any{"channel": traceable(rc.identifier)}}
		}
		e := rc.expiredError("the server refused to renew the session (subscription rejected)")
		e.Details["reason"] = "subscription_rejected"
		return RelayEvent{}, rc.lost(e)
	case frameMessage:
		if rc.r.logs {
			if _, ok := parseLogMessage(fr.message); ok && rc.confirmed {
				rc.progress()
			}
		}
		return RelayEvent{Kind: RelayMessage, Message: fr.message}, nil
	case frameExpired:
		if !rc.expired {
			rc.expired = true
			if !rc.progressed {
				rc.r.failed(rc.expiredError("the session expired before making progress"))
			}
		}
		return RelayEvent{Kind: RelayExpired}, nil
	case frameDisconnect:
		if !fr.reconnect {
			code := client.CodeNetwork
			if fr.reason == "unauthorized" {
				code = client.CodeUnauthorized
			}
			rc.again = false
			return RelayEvent{}, &client.Error{Code: code, Resource: rc.resource(),
				Message: "the server closed the " + rc.r.what() + ": " + oneLine(fr.reason), Details: map[string]any{"reason": fr.reason}}
		}
		return RelayEvent{}, rc.lost(&client.Error{Code: client.CodeNetwork, Resource: rc.resource(), Retryable: true,
			Message: "server disconnected: " + oneLine(fr.reason)})
	}
	return RelayEvent{}, nil
}

// isFirst: no connection of this stream was confirmed before; only then
// is a refusal final.
func (rc *RelayConn) isFirst() bool {
	rc.r.mu.Lock()
	defer rc.r.mu.Unlock()
	return !rc.r.confirmed
}

// tick is the keeper's tick for one relayed connection: progress after a
// ping interval confirmed, death after two silent ones, a failed attempt
// when never confirmed. Silence is judged only on a running process (see
// keeper.tick).
func (rc *RelayConn) tick() error {
	now := time.Now()
	stalled := !rc.lastTick.IsZero() && now.Sub(rc.lastTick) > max(rc.interval/2, 50*time.Millisecond)
	rc.lastTick = now
	grace := stalled && !rc.graced
	rc.graced = grace
	if rc.confirmed && !rc.progressed && !rc.expired && now.Sub(rc.confirmedAt) >= rc.interval {
		rc.progress()
	}
	if grace || len(rc.events) > 0 {
		return nil
	}
	if now.Sub(rc.beat) > 2*rc.interval {
		rc.r.c.Tracef("stream: relayed connection: nothing for two ping intervals (%s); dropping it", (2 * rc.interval).String())
		e := rc.b.TransportError(errStale, false)
		e.Retryable = true
		e.Message = "nothing from the server for two ping intervals (" + (2 * rc.interval).String() + ")"
		return rc.lost(e)
	}
	if !rc.confirmed && now.Sub(rc.opened) > rc.confirm {
		return rc.lost(&client.Error{Code: client.CodeRequestTimeout, Resource: rc.resource(), Retryable: true,
			Message: "the server did not confirm the " + rc.r.what() + " subscription within " + rc.confirm.String()})
	}
	return nil
}

// progress gives the budget back and marks the stream as working.
func (rc *RelayConn) progress() {
	rc.progressed = true
	rc.b.Restart()
}

// lost ends the connection with e, to be counted by the next Open as the
// keeper counts a lost connection before reconnecting. After an expiry the
// far side is already recovering: the expiry decided what is counted.
func (rc *RelayConn) lost(e *client.Error) error {
	rc.again = true
	if !rc.expired {
		rc.r.failed(e)
	}
	return e
}

func (rc *RelayConn) expiredError(msg string) *client.Error {
	return &client.Error{Code: client.CodeSessionExpired, Resource: rc.resource(), Retryable: true, Message: msg,
		Details: map[string]any{"reason": statusSessionExpired, "playground_id": rc.r.pg.ID}}
}

func (rc *RelayConn) resource() string { return rc.r.c.StreamResource(rc.r.pg) }

// Send writes data (a JSON object: terminal input, a resize) as a message
// command of the subscription.
func (rc *RelayConn) Send(ctx context.Context, data any) error {
	wctx, cancel := context.WithTimeout(ctx, rc.b.AttemptTimeout())
	defer cancel()
	return rc.ws.Write(wctx, websocket.MessageText, messageCommand(rc.identifier, data))
}

// Close closes the connection and waits for its reader.
func (rc *RelayConn) Close() {
	rc.check.Stop()
	rc.stop()
	_ = rc.ws.CloseNow()
	rc.wg.Wait()
}
