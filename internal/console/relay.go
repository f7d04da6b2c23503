package console

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/stream"
)

// Stream kinds the browser may open, and their API channels.
var channels = map[string]string{
	"logs":     "PlaygroundLogsChannel",
	"terminal": "PlaygroundTerminalChannel",
}

// ticketTTL bounds the time between fetching a stream URL and opening it.
const ticketTTL = 30 * time.Second

// streamIdle is how long a stream's state (its retry budget) is kept
// after its last connection ended: a tab that comes back later starts a
// fresh stream.
const streamIdle = 10 * time.Minute

// ticket is a minted stream URL: single use, short-lived.
type ticket struct {
	identifier string
	stream     *relayStream
	expires    time.Time
}

// relayStream is one stream of a pane, across the browser connections
// that carry it: the browser sends its id back with every new stream URL
// it asks for, so every reopen counts on the same retry budget
// (stream.Relay).
type relayStream struct {
	kind       string
	playground int64
	relay      *stream.Relay
	open       int       // under Server.mu: relays running
	lastUsed   time.Time // under Server.mu
}

// relayStreams are the streams of every tab, by id (under Server.mu).
type relayStreams map[string]*relayStream

// stream finds the stream id names, of this kind and playground, or
// starts a new one; it forgets streams idle for streamIdle. Under s.mu.
func (s *Server) streamLocked(id, kind string, playground int64, now time.Time) (string, *relayStream) {
	if s.streams == nil {
		s.streams = relayStreams{}
	}
	for k, st := range s.streams {
		if st.open == 0 && now.Sub(st.lastUsed) > streamIdle {
			delete(s.streams, k)
		}
	}
	if st := s.streams[id]; st != nil && st.kind == kind && st.playground == playground {
		st.lastUsed = now
		return id, st
	}
	id = randomHex(16)
	st := &relayStream{kind: kind, playground: playground, lastUsed: now,
		relay: stream.NewRelay(s.api, playground, kind == "logs", 0)}
	s.streams[id] = st
	return id, st
}

// identifier is an ActionCable subscription identifier; field order is
// fixed so that its string is stable.
type identifier struct {
	Channel      string `json:"channel"`
	PlaygroundID int64  `json:"playground_id"`
	Service      string `json:"service,omitempty"`
	Tail         int    `json:"tail,omitempty"`
	Since        *int64 `json:"since,omitempty"`
	Cols         int    `json:"cols,omitempty"`
	Rows         int    `json:"rows,omitempty"`
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// streamURL mints a fresh stream URL: GET /streams/url?kind=logs|terminal
// &playground=<id>[&tail=&since=&service=&cols=&rows=][&stream=<id>]. The
// answer names the stream ({"url","stream"}): a reopen passes it back.
func (s *Server) streamURL(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ch, ok := channels[q.Get("kind")]
	if !ok {
		jsonError(w, http.StatusBadRequest, "kind must be logs or terminal")
		return
	}
	id := identifier{Channel: ch, Service: q.Get("service")}
	var err error
	if id.PlaygroundID, err = strconv.ParseInt(q.Get("playground"), 10, 64); err != nil || id.PlaygroundID <= 0 {
		jsonError(w, http.StatusBadRequest, "playground must be a playground id")
		return
	}
	for name, dst := range map[string]*int{"tail": &id.Tail, "cols": &id.Cols, "rows": &id.Rows} {
		if v := q.Get(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 100000 {
				jsonError(w, http.StatusBadRequest, name+" must be a small non-negative integer")
				return
			}
			*dst = n
		}
	}
	if v := q.Get("since"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			jsonError(w, http.StatusBadRequest, "since must be a sequence number")
			return
		}
		id.Since = &n
	}
	raw, _ := json.Marshal(id)
	t := randomHex(16)
	now := time.Now()
	s.mu.Lock()
	for k, old := range s.tickets {
		if now.After(old.expires) {
			delete(s.tickets, k)
		}
	}
	sid, st := s.streamLocked(q.Get("stream"), q.Get("kind"), id.PlaygroundID, now)
	s.tickets[t] = &ticket{identifier: string(raw), stream: st, expires: now.Add(ticketTTL)}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"url": "ws://" + r.Host + "/streams/ws/" + t, "stream": sid})
}

func (s *Server) takeTicket(t string) *ticket {
	s.mu.Lock()
	defer s.mu.Unlock()
	tk := s.tickets[t]
	delete(s.tickets, t)
	if tk == nil || time.Now().After(tk.expires) {
		return nil
	}
	return tk
}

// browserFrame is what the relay sends the browser.
type browserFrame struct {
	Type    string          `json:"type"` // confirm, reject, message, error, ping
	Message json.RawMessage `json:"message,omitempty"`
	Error   string          `json:"error,omitempty"`
	Code    string          `json:"code,omitempty"` // error, reject: the error's code, as the CLI shows it
	// Final (error): the stream is over; else the browser asks for the
	// next connection at once (the relay waits the backoff).
	Final bool `json:"final,omitempty"`
	// Interval (confirm, ping): the liveness interval in milliseconds; the
	// browser treats two of them without a frame as a drop.
	Interval int64 `json:"interval,omitempty"`
	// Retries (confirm): the reopens the stream's budget allows without
	// progress.
	Retries int `json:"retries,omitempty"`
}

// expiredMessage is how an expiry reaches the browser, whatever shape the
// API sent it in.
const expiredMessage = `{"status":"session_expired"}`

// streamRelay relays one browser connection over one API cable connection
// (the console adds the credentials). It never recovers: when the API's
// connection ends, the browser's ends, and session_expired is passed
// through for the browser to recover once. Every API connection is opened
// by the stream's stream.Relay, so the marquee's breaker and the stream's
// retry budget decide whether it is made (docs/contract.md §6, §7), and
// the relay judges the API connection's liveness. The browser judges its
// own connection's by the relay's pings.
func (s *Server) streamRelay(w http.ResponseWriter, r *http.Request) {
	tk := s.takeTicket(r.PathValue("ticket"))
	if tk == nil {
		http.Error(w, "404 not found: unknown or used stream URL", http.StatusNotFound)
		return
	}
	// Hijacked connections are not waited for by the HTTP server's
	// shutdown; Close waits for the relays itself.
	if !s.relayStarted() {
		http.Error(w, "503 service unavailable: the console is stopping", http.StatusServiceUnavailable)
		return
	}
	defer s.relayWG.Done()
	bws, err := websocket.Accept(w, r, nil) // same-origin only
	if err != nil {
		return
	}
	defer bws.CloseNow()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	stop := context.AfterFunc(r.Context(), cancel)
	defer stop()
	st := tk.stream
	s.mu.Lock()
	st.open++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		st.open--
		st.lastUsed = time.Now()
		s.mu.Unlock()
	}()
	// The browser's reads: terminal input, and noticing that it left
	// (including while the relay waits a backoff before opening). Input is
	// sent once the subscription is confirmed, as the CLI's terminal does;
	// what was typed on this connection before is kept until then.
	inputs := make(chan termInput, 64)
	var confirmed atomic.Bool
	go readBrowser(ctx, cancel, bws, inputs, &confirmed)
	go pingBrowser(ctx, bws, st.relay)

	api, err := st.relay.Open(ctx, tk.identifier)
	if err != nil {
		if ctx.Err() == nil {
			endStream(ctx, bws, err, true)
		}
		return
	}
	s.relays.Add(1)
	defer api.Close()
	for {
		ev, err := api.Next(ctx)
		if err != nil {
			if ctx.Err() == nil {
				endStream(ctx, bws, err, !api.Reopen())
			}
			return
		}
		if ev.Kind == stream.RelayConfirmed && !confirmed.Swap(true) {
			go forwardInput(ctx, cancel, inputs, api)
		}
		var out browserFrame
		switch ev.Kind {
		case stream.RelayConfirmed:
			out = browserFrame{Type: "confirm", Interval: browserInterval(st.relay).Milliseconds(), Retries: st.relay.Retries()}
		case stream.RelayMessage:
			out = browserFrame{Type: "message", Message: ev.Message}
		case stream.RelayExpired:
			out = browserFrame{Type: "message", Message: json.RawMessage(expiredMessage)}
		}
		if err := writeFrame(ctx, bws, out); err != nil {
			return
		}
	}
}

// endStream tells the browser how its stream ended and closes its
// connection: a refused first subscription as "reject", anything else as
// "error" with the code the CLI would show.
func endStream(ctx context.Context, bws *websocket.Conn, err error, final bool) {
	v := errorOf(err)
	f := browserFrame{Type: "error", Error: v.Line(), Code: v.Code, Final: final}
	if v.Code == client.CodeForbidden && final {
		f.Type = "reject"
	}
	_ = writeFrame(ctx, bws, f)
	_ = bws.Close(websocket.StatusNormalClosure, "stream ended")
}

// minBrowserInterval bounds how often the browser is pinged, whatever the
// API's ping period.
const minBrowserInterval = 500 * time.Millisecond

// browserInterval is the liveness interval the browser is told: the API
// connection's, at least minBrowserInterval.
func browserInterval(relay *stream.Relay) time.Duration {
	return max(relay.Interval(), minBrowserInterval)
}

// pingBrowser tells the browser twice per liveness interval that its
// connection is alive; the API connection's liveness is the relay's.
func pingBrowser(ctx context.Context, bws *websocket.Conn, relay *stream.Relay) {
	for {
		d := browserInterval(relay)
		t := time.NewTimer(d / 2)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if writeFrame(ctx, bws, browserFrame{Type: "ping", Interval: d.Milliseconds()}) != nil {
			return
		}
	}
}

// termInput is terminal input or a resize from the browser.
type termInput struct {
	Action string `json:"action"`
	Data   string `json:"data,omitempty"`
	Cols   int    `json:"cols,omitempty"`
	Rows   int    `json:"rows,omitempty"`
}

// readBrowser reads the browser's frames until it leaves (then cancel),
// queueing terminal input and resizes for forwardInput. Before the
// subscription is confirmed the queue is not read: what does not fit is
// dropped rather than block noticing that the browser left; after, a full
// queue holds the browser back.
func readBrowser(ctx context.Context, cancel context.CancelFunc, bws *websocket.Conn, inputs chan<- termInput, confirmed *atomic.Bool) {
	defer cancel()
	bws.SetReadLimit(1 << 20)
	for {
		_, data, err := bws.Read(ctx)
		if err != nil {
			return
		}
		var in termInput
		if json.Unmarshal(data, &in) != nil || (in.Action != "input" && in.Action != "resize") {
			continue
		}
		if !confirmed.Load() {
			select {
			case inputs <- in:
			default:
			}
			continue
		}
		select {
		case inputs <- in:
		case <-ctx.Done():
			return
		}
	}
}

// forwardInput sends the queued input to the confirmed subscription as
// ActionCable message commands.
func forwardInput(ctx context.Context, cancel context.CancelFunc, inputs <-chan termInput, api *stream.RelayConn) {
	for {
		select {
		case <-ctx.Done():
			return
		case in := <-inputs:
			if err := api.Send(ctx, in); err != nil {
				cancel()
				return
			}
		}
	}
}

func writeFrame(ctx context.Context, ws *websocket.Conn, f browserFrame) error {
	b, _ := json.Marshal(f)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, b)
}
