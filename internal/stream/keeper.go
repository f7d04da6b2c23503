package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/fibegg/fibe/internal/client"
)

// DefaultPingInterval is ActionCable's ping period, the liveness interval
// until the server has shown its own (two pings seen).
const DefaultPingInterval = 3 * time.Second

// minInterval keeps a measured ping interval sane when two pings arrive
// back to back.
const minInterval = 10 * time.Millisecond

// channel is what one kind of subscription adds to the keeper: the
// identifier to subscribe with, what its messages mean, and what a
// renewed session means to it.
type channel interface {
	// what names the stream in messages ("log stream", "terminal").
	what() string
	// identifier is the subscription for the next connection.
	identifier() string
	// message applies one message of the subscription. progress: it moved
	// the stream forward (a line, output). An error ends the stream.
	message(raw json.RawMessage) (progress bool, err error)
	// confirmed is told of each confirmed subscription: first is the
	// stream's first one; dropped is how many input bytes were dropped
	// since the previous session ended.
	confirmed(first bool, dropped int) error
	// outgoing turns one input item into the data of a message command and
	// its size in bytes (nil: nothing to send).
	outgoing(in Input) (data any, size int)
	// oneShot: the subscription starts work that must not be started
	// twice (a command); a session lost after subscribing is not renewed.
	oneShot() bool
	// details go into the stream's errors (e.g. the last sequence number).
	details() map[string]any
}

// keeper keeps one subscription up over ActionCable, for logs and
// terminals alike. Its state belongs to the run loop; connection readers
// and the connecting goroutine only post to it.
type keeper struct {
	c        *client.Client
	ch       channel
	resource string // breaker resource: marquee/<name>
	budget   *client.StreamBudget
	confirm  time.Duration // a subscription not confirmed by then is a failed attempt

	events chan connEvent
	dialed chan dialResult
	wg     sync.WaitGroup

	gen        int
	conns      map[int]*conn // current and retiring connections
	current    *conn         // the newest connection; nil while connecting
	connecting bool

	interval      time.Duration // liveness: the server's ping period as seen
	lastTick      time.Time     // when tick last ran, to tell a stalled process from a silent server
	graced        bool          // the last tick followed a stall and judged nothing
	everConfirmed bool
	expiryTried   bool // "already tried": one recovery per expiry (docs/contract.md §7)
	recoveries    int
	ignored       int // expiry messages ignored while a recovery was under way
	ignoredNow    int // the same, for the current recovery
	dropped       int // input bytes dropped while no session was up
	// inputEnded: the end of input (endOfInput) was typed. Every session
	// confirmed after it gets it too, so a session renewed around it
	// cannot wait forever for input that will never come.
	inputEnded bool
}

// conn is one websocket connection carrying our subscription.
type conn struct {
	gen         int
	ws          *websocket.Conn
	identifier  string
	stop        context.CancelFunc // ends its reader
	opened      time.Time
	confirmed   bool
	confirmedAt time.Time
	progressed  bool      // a message moved the stream, or it stayed up one ping interval
	expired     bool      // its session expired: it can no longer make progress
	beat        time.Time // last frame of any kind, as read by its reader
	pings       pinger
}

// connEvent is one frame (or the end) of connection gen.
type connEvent struct {
	gen   int
	frame frame
	err   error     // the connection ended
	at    time.Time // when the reader read it (the loop may apply it later)
}

type dialResult struct {
	conn *conn
	err  error
}

// budgetSpent is connect's answer once failures have spent the retry
// budget; the run loop turns it into the stream's error.
type budgetSpent struct{ last *client.Error }

func (budgetSpent) Error() string { return "stream retry budget spent" }

// errStale ends a connection that stopped pinging.
var errStale = errors.New("no ping for two ping intervals")

func newKeeper(c *client.Client, ch channel, pg *client.Playground, ping time.Duration) *keeper {
	if ping <= 0 {
		ping = DefaultPingInterval
	}
	resource := c.StreamResource(pg)
	b := c.NewStreamBudget(resource)
	return &keeper{
		c: c, ch: ch, resource: resource, budget: b,
		confirm:  b.AttemptTimeout(),
		events:   make(chan connEvent, 64),
		dialed:   make(chan dialResult, 1),
		conns:    map[int]*conn{},
		interval: ping,
	}
}

// run keeps the subscription up until ctx ends (CANCELLED), the channel
// ends the stream (its error), or the stream cannot be kept up (a typed
// error). Input is read only once a first subscription is confirmed, so
// nothing typed early is lost.
func (k *keeper) run(ctx context.Context, input <-chan Input) error {
	ctx, cancel := context.WithCancel(ctx)
	defer k.shutdown(cancel)
	k.startConnect(ctx, nil, "connect")

	every := k.interval / 4
	check := time.NewTicker(max(every, time.Millisecond))
	defer check.Stop()
	for {
		var in <-chan Input
		if k.everConfirmed {
			in = input
		}
		select {
		case <-ctx.Done():
			return k.cancelled(ctx)
		case r := <-k.dialed:
			k.connecting = false
			if spent, ok := r.err.(budgetSpent); ok {
				return k.giveUp(spent.last)
			}
			if r.err != nil {
				return r.err
			}
			k.adopt(ctx, r.conn)
		case ev := <-k.events:
			if err := k.handle(ctx, ev); err != nil {
				return err
			}
		case item, ok := <-in:
			if !ok {
				input = nil
				continue
			}
			k.send(ctx, item)
		case <-check.C:
			if err := k.tick(ctx); err != nil {
				return err
			}
			if e := k.interval / 4; e != every {
				every = e
				check.Reset(max(every, time.Millisecond))
			}
		}
	}
}

// expired is docs/contract.md §7 for session_expired, in one place:
//   - an expiry gets exactly one recovery (fresh cable URL, reconnect,
//     resubscribe) and sets the "already tried" flag;
//   - while the flag is set, further expiries are ignored;
//   - only a confirmed subscription clears it (see confirmed), so the
//     next expiry gets its own recovery.
//
// A session that expired before it made progress costs one retry of the
// budget (and its backoff), so a stream that expires right after every
// confirmation ends with SESSION_EXPIRED after the policy's retries,
// while one that works between expiries lives forever.
func (k *keeper) expired(ctx context.Context, c *conn) error {
	if k.expiryTried || c != k.current {
		k.ignored++
		k.ignoredNow++
		if k.ignoredNow == 1 {
			k.c.Tracef("stream: session_expired ignored: recovery already under way (further ones counted)")
		}
		return nil
	}
	c.expired = true
	if k.ch.oneShot() {
		return k.unknownOutcome(k.expiredError("the session expired"))
	}
	k.expiryTried = true
	k.recoveries++
	k.ignoredNow = 0
	var failure *client.Error
	if !c.progressed {
		failure = k.expiredError("the session expired before making progress")
	}
	k.c.Tracef("stream: session_expired: recovering once (fresh cable URL, reconnect, resubscribe)")
	k.startConnect(ctx, failure, "session expired")
	return nil
}

// confirmed applies a confirmed subscription: the only thing that clears
// the expiry flag.
func (k *keeper) confirmed(ctx context.Context, c *conn) error {
	c.confirmed, c.confirmedAt = true, time.Now()
	if k.expiryTried {
		k.expiryTried = false
		k.c.Tracef("stream: subscription confirmed: %s; expiry recovery done (%d expiry messages ignored meanwhile)", traceable(c.identifier), k.ignoredNow)
	} else {
		k.c.Tracef("stream: subscription confirmed: %s", traceable(c.identifier))
	}
	for _, old := range k.conns {
		if old != c {
			k.retire(old)
		}
	}
	first := !k.everConfirmed
	k.everConfirmed = true
	dropped := k.dropped
	k.dropped = 0
	if err := k.ch.confirmed(first, dropped); err != nil {
		return err
	}
	if k.inputEnded && !first {
		// The end of input is never dropped: the renewed session gets it.
		k.c.Tracef("stream: input had ended; sending the end of input to the renewed session")
		if data, _ := k.ch.outgoing(Input{Data: []byte{endOfInput}}); data != nil {
			k.write(ctx, c, data)
		}
	}
	return nil
}

// startConnect opens the next connection in the background, so the loop
// keeps reading the connection it replaces. failure is what ended the
// previous session, counted on the budget first (nil: nothing to count,
// as for the first connection or the recovery of a session that made
// progress).
func (k *keeper) startConnect(ctx context.Context, failure *client.Error, why string) {
	if k.connecting {
		return
	}
	k.connecting = true
	identifier := k.ch.identifier()
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		ws, err := k.connect(ctx, identifier, failure, why)
		if err != nil {
			k.dialed <- dialResult{err: err}
			return
		}
		k.dialed <- dialResult{conn: &conn{ws: ws, identifier: identifier}}
	}()
}

// connect opens a connection carrying a subscription to identifier (see
// dial).
func (k *keeper) connect(ctx context.Context, identifier string, failure *client.Error, why string) (*websocket.Conn, error) {
	return dial(ctx, k.c, k.budget, identifier, failure, why)
}

// dial opens a connection carrying a subscription to identifier: the
// keeper's reconnects and the relay's (relay.go) alike.
//
// Connecting is one logical request under the Client's retry loop: breaker
// admission per handshake, classification, Retry-After or backoff, the
// retry budget. The budget is the stream's, shared by every (re)connect
// until the stream makes progress again, and a lost session (failure)
// counts as a failed attempt of it: the reconnect first waits its backoff.
func dial(ctx context.Context, c *client.Client, b *client.StreamBudget, identifier string, failure *client.Error, why string) (*websocket.Conn, error) {
	if failure != nil {
		if err, spent := b.Failed(ctx, failure); err != nil {
			if spent {
				return nil, budgetSpent{last: err}
			}
			return nil, err
		}
	}
	c.Tracef("stream: connecting: %s", why)
	t, err := c.CableTarget(ctx)
	if err != nil {
		return nil, err
	}
	var ws *websocket.Conn
	err = b.Retry(ctx, func(ctx context.Context) error {
		conn, err := dialOnce(ctx, c, b, t)
		if err != nil {
			return err
		}
		if err := conn.Write(ctx, websocket.MessageText, subscribeCommand(identifier)); err != nil {
			_ = conn.CloseNow()
			return b.TransportError(err, false)
		}
		ws = conn
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ws, nil
}

// dialOnce is one handshake under the attempt timeout. A non-101 answer is
// typed like any HTTP error answer (its status decides retry and breaker).
func dialOnce(ctx context.Context, c *client.Client, b *client.StreamBudget, t *client.CableTarget) (*websocket.Conn, error) {
	note := "not sent"
	if t.KeySent() {
		note = "sent"
	}
	c.Tracef("stream: --> GET %s (key %s)", t.Redacted(), note)
	actx, cancel := context.WithTimeout(ctx, b.AttemptTimeout())
	defer cancel()
	ws, resp, err := websocket.Dial(actx, t.URL.String(), &websocket.DialOptions{
		HTTPClient: t.HTTPClient, HTTPHeader: t.Header, Subprotocols: t.Protocols,
	})
	switch {
	case err == nil:
		ws.SetReadLimit(1 << 20)
		c.Tracef("stream: <-- 101 connected (subprotocol %s)", ws.Subprotocol())
		return ws, nil
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		e := b.HandshakeError(resp)
		c.Tracef("stream: <-- %d %s", resp.StatusCode, e.Error())
		return nil, e
	default:
		e := b.TransportError(err, ctx.Err() == nil && actx.Err() != nil)
		c.Tracef("stream: <-- no connection: %s", e.Message)
		return nil, e
	}
}

// adopt makes a fresh connection the current one and starts its reader.
func (k *keeper) adopt(ctx context.Context, c *conn) {
	k.gen++
	now := time.Now()
	c.gen, c.beat, c.opened = k.gen, now, now
	rctx, stop := context.WithCancel(ctx)
	c.stop = stop
	k.conns[c.gen] = c
	k.current = c
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		k.read(rctx, c)
	}()
}

// read posts c's frames to the loop until the connection ends.
func (k *keeper) read(ctx context.Context, c *conn) { readConn(ctx, c, k.events) }

// readConn posts c's frames to events until the connection ends.
func readConn(ctx context.Context, c *conn, events chan<- connEvent) {
	for {
		_, data, err := c.ws.Read(ctx)
		ev := connEvent{gen: c.gen, err: err, at: time.Now()}
		if err == nil {
			fr, ok := parseFrame(data, c.identifier)
			if !ok {
				continue // ActionCable clients skip frames they cannot parse
			}
			ev.frame = fr
		}
		select {
		case events <- ev:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// handle applies one connection event.
func (k *keeper) handle(ctx context.Context, ev connEvent) error {
	c, ok := k.conns[ev.gen]
	if !ok {
		return nil // a connection already retired
	}
	current := c == k.current
	if ev.err != nil {
		k.retire(c)
		if !current {
			return nil
		}
		if ctx.Err() != nil {
			return k.cancelled(ctx)
		}
		drop := k.dropError(ev.err)
		k.c.Tracef("stream: connection dropped: %s", drop.Message)
		return k.lost(ctx, c, drop, "connection dropped")
	}
	if ev.at.After(c.beat) {
		c.beat = ev.at
	}
	switch fr := ev.frame; fr.kind {
	case framePing:
		k.ping(c, ev.at)
	case frameConfirm:
		if current && !c.confirmed {
			return k.confirmed(ctx, c)
		}
	case frameReject:
		if current {
			return k.rejected(ctx, c)
		}
	case frameMessage:
		progress, err := k.ch.message(fr.message)
		if err != nil {
			return err
		}
		if progress {
			k.progress(c)
		}
	case frameExpired:
		return k.expired(ctx, c)
	case frameDisconnect:
		if !current {
			return nil
		}
		if !fr.reconnect {
			code := client.CodeNetwork
			if fr.reason == "unauthorized" {
				code = client.CodeUnauthorized
			}
			return &client.Error{Code: code, Resource: k.resource, Message: "the server closed the " + k.ch.what() + ": " + oneLine(fr.reason),
				Details: k.details(map[string]any{"reason": fr.reason})}
		}
		drop := &client.Error{Code: client.CodeNetwork, Message: "server disconnected: " + oneLine(fr.reason), Resource: k.resource, Retryable: true}
		return k.lost(ctx, c, drop, "server disconnected ("+oneLine(fr.reason)+")")
	}
	return nil
}

// ping notes a ping on c: the liveness interval is the server's period as
// c's pinger measures it.
func (k *keeper) ping(c *conn, now time.Time) {
	k.interval = c.pings.seen(now, k.interval)
}

// pinger measures the server's ping period on one connection: the longest
// of the last few gaps between its pings (a ping delayed in transit makes
// the next gap look short). A first gap far shorter than the interval in
// use waits for a second one to confirm it: two pings read together after
// a stall of this process are not the server's period, and would make a
// live connection look silent.
type pinger struct {
	last time.Time
	gaps [4]time.Duration
	n    int
}

// seen notes a ping read at now and returns the liveness interval to use
// instead of interval.
func (p *pinger) seen(now time.Time, interval time.Duration) time.Duration {
	if !p.last.IsZero() {
		p.gaps[p.n%len(p.gaps)] = now.Sub(p.last)
		p.n++
		longest := time.Duration(0)
		for _, g := range p.gaps {
			longest = max(longest, g)
		}
		if p.n > 1 || longest >= interval/4 {
			interval = max(longest, minInterval)
		}
	}
	p.last = now
	return interval
}

// progress gives the retry budget back: the stream works again, and the
// connection that shows it is the first attempt of a fresh budget.
func (k *keeper) progress(c *conn) {
	if c.confirmed {
		c.progressed = true
	}
	k.budget.Restart()
}

// tick watches the current connection: a confirmed subscription that
// stayed up one ping interval is progress; two intervals without a frame
// mean the connection is dead; a subscription never confirmed is a
// failed attempt.
//
// Silence is judged only on a process that was running: frames already
// read but not yet applied (the loop's select may pick this tick first)
// are not silence, nor is the time this process itself was stalled (a
// loaded machine, a long GC pause), after which the readers get one tick
// to catch up. Otherwise a stalled client would drop a live session and
// lose the output it had already received.
func (k *keeper) tick(ctx context.Context) error {
	now := time.Now()
	stalled := !k.lastTick.IsZero() && now.Sub(k.lastTick) > max(k.interval/2, 50*time.Millisecond)
	k.lastTick = now
	grace := stalled && !k.graced // one tick of grace, never two in a row
	k.graced = grace
	c := k.current
	if c == nil {
		return nil
	}
	if c.confirmed && !c.progressed && !c.expired && now.Sub(c.confirmedAt) >= k.interval {
		k.progress(c)
	}
	if grace || len(k.events) > 0 {
		return nil
	}
	if now.Sub(c.beat) > 2*k.interval {
		k.c.Tracef("stream: nothing for two ping intervals (%s); dropping the connection", (2 * k.interval).String())
		e := k.dropError(errStale)
		e.Message = "nothing from the server for two ping intervals (" + (2 * k.interval).String() + ")"
		return k.lost(ctx, c, e, "no ping for two intervals")
	}
	if !c.confirmed && now.Sub(c.opened) > k.confirm {
		e := &client.Error{Code: client.CodeRequestTimeout, Resource: k.resource, Retryable: true,
			Message: "the server did not confirm the " + k.ch.what() + " subscription within " + k.confirm.String()}
		k.c.Tracef("stream: %s", e.Message)
		return k.lost(ctx, c, e, "no confirmation")
	}
	return nil
}

// lost handles a connection that ended under the stream (a drop, a
// disconnect, silence): reconnect after counting it on the budget, unless
// the subscription started work that must not start twice.
func (k *keeper) lost(ctx context.Context, c *conn, e *client.Error, why string) error {
	k.retire(c)
	k.current = nil
	if k.ch.oneShot() {
		return k.unknownOutcome(e)
	}
	k.startConnect(ctx, e, why)
	return nil
}

// rejected: the first subscription refused is final (FORBIDDEN); a
// refused renewal is a failed attempt, so a stream whose recoveries keep
// being refused ends with SESSION_EXPIRED once the budget is spent.
func (k *keeper) rejected(ctx context.Context, c *conn) error {
	if !k.everConfirmed || k.ch.oneShot() {
		return &client.Error{Code: client.CodeForbidden, Resource: k.resource,
			Message: "the server rejected the " + k.ch.what() + " subscription",
			Details: k.details(map[string]any{"channel": traceable(c.identifier)})}
	}
	e := k.expiredError("the server refused to renew the session (subscription rejected)")
	e.Details["reason"] = "subscription_rejected"
	k.c.Tracef("stream: %s", e.Message)
	return k.lost(ctx, c, e, "subscription rejected")
}

// send writes one input item on the current session, or drops it when no
// session is up (renewing): input is never sent twice, nor to a session
// other than the one it was typed for.
//
// The end of input (endOfInput alone, as a script's session sends when
// stdin ends, or Ctrl-D pressed alone) is the exception: it is never
// dropped. Typed while no session is up, it goes to the next session
// once confirmed, and so does it to every later one (see confirmed).
func (k *keeper) send(ctx context.Context, in Input) {
	data, size := k.ch.outgoing(in)
	if data == nil {
		return
	}
	end := in.isEnd()
	if end {
		k.inputEnded = true
	}
	c := k.current
	if c == nil || !c.confirmed || k.expiryTried || k.connecting {
		if end {
			k.c.Tracef("stream: end of input while the session renews: kept for the next session")
			return
		}
		k.dropped += size
		return
	}
	if !k.write(ctx, c, data) && !end {
		k.dropped += size // the reader sees the connection end
	}
}

// write sends one message command on c; false when it could not.
func (k *keeper) write(ctx context.Context, c *conn, data any) bool {
	wctx, cancel := context.WithTimeout(ctx, k.budget.AttemptTimeout())
	defer cancel()
	return c.ws.Write(wctx, websocket.MessageText, messageCommand(c.identifier, data)) == nil
}

// retire closes a connection and forgets it.
func (k *keeper) retire(c *conn) {
	if _, ok := k.conns[c.gen]; !ok {
		return
	}
	delete(k.conns, c.gen)
	c.stop()
	_ = c.ws.CloseNow()
}

func (k *keeper) expiredError(msg string) *client.Error {
	return &client.Error{Code: client.CodeSessionExpired, Resource: k.resource, Retryable: true, Message: msg,
		Details: k.details(map[string]any{"reason": statusSessionExpired})}
}

// unknownOutcome is the end of a one-shot session lost after it started:
// its work may or may not have run, and it is not started again.
func (k *keeper) unknownOutcome(e *client.Error) *client.Error {
	out := *e
	out.OutcomeUnknown, out.Retryable = true, false
	out.Message = e.Message + "; the command's outcome is unknown and it was not run again"
	out.Details = k.details(e.Details)
	return &out
}

// dropError types the end of a live connection.
func (k *keeper) dropError(err error) *client.Error {
	e := k.budget.TransportError(err, false)
	e.Retryable = true
	return e
}

// giveUp is the error once the budget is spent.
func (k *keeper) giveUp(last *client.Error) *client.Error {
	e := spentError(k.ch.what(), k.budget, last, k.details(last.Details))
	e.Details["recoveries"] = k.recoveries
	e.Details["ignored_expiries"] = k.ignored
	return e
}

// spentError is a stream's error once its budget is spent: the last
// failure's code, saying what it tried.
func spentError(what string, b *client.StreamBudget, last *client.Error, details map[string]any) *client.Error {
	e := *last
	n := strconv.Itoa(b.Retries())
	if last.Code == client.CodeSessionExpired {
		e.Message = fmt.Sprintf("the %s session kept expiring without progress; gave up after %s recoveries (last: %s)", what, n, last.Message)
	} else {
		e.Message = what + " lost after " + n + " reconnects without progress (last: " + last.Message + ")"
	}
	e.Retryable = true
	if details == nil {
		details = map[string]any{}
	}
	e.Details = details
	return &e
}

// details merges the channel's details (e.g. last_seq) with extra.
func (k *keeper) details(extra map[string]any) map[string]any {
	d := k.ch.details()
	if d == nil {
		d = map[string]any{}
	}
	for key, v := range extra {
		d[key] = v
	}
	return d
}

func (k *keeper) cancelled(ctx context.Context) error {
	e := k.budget.Cancelled(ctx)
	e.Message = k.ch.what() + " interrupted"
	e.Details = k.details(nil)
	return e
}

// shutdown stops every goroutine and closes every connection.
func (k *keeper) shutdown(cancel context.CancelFunc) {
	cancel()
	for _, c := range k.conns {
		k.retire(c)
	}
	k.wg.Wait()
	select {
	case r := <-k.dialed:
		if r.conn != nil {
			_ = r.conn.ws.CloseNow()
		}
	default:
	}
	k.c.Tracef("stream: %s ended (%d expiry recoveries, %d expiry messages ignored)", k.ch.what(), k.recoveries, k.ignored)
}

// traceable is an identifier as the debug trace may show it: a command
// typed by the user may hold a secret, so it is masked.
func traceable(identifier string) string {
	var id map[string]any
	if json.Unmarshal([]byte(identifier), &id) != nil {
		return "(identifier)"
	}
	if _, ok := id["command"]; ok {
		id["command"] = "[REDACTED]"
		b, _ := json.Marshal(id)
		return string(b)
	}
	return identifier
}

// oneLine collapses control characters and caps the length of a server
// string before it goes into a message.
func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			r = ' '
		}
		out = append(out, r)
		if len(out) >= 200 {
			out = append(out, '…')
			break
		}
	}
	return string(out)
}
