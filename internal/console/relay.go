package console

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// Stream kinds the browser may open, and their API channels.
var channels = map[string]string{
	"logs":     "PlaygroundLogsChannel",
	"terminal": "PlaygroundTerminalChannel",
}

// ticketTTL bounds the time between fetching a stream URL and opening it.
const ticketTTL = 30 * time.Second

// ticket is a minted stream URL: single use, short-lived.
type ticket struct {
	identifier string
	expires    time.Time
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
// &playground=<id>[&tail=&since=&service=&cols=&rows=].
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
	s.tickets[t] = &ticket{identifier: string(raw), expires: now.Add(ticketTTL)}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"url": "ws://" + r.Host + "/streams/ws/" + t})
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
	Type    string          `json:"type"` // confirm, reject, message, error
	Message json.RawMessage `json:"message,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// cableFrame is one frame from the API's cable server.
type cableFrame struct {
	Type       string          `json:"type"`
	Identifier string          `json:"identifier"`
	Message    json.RawMessage `json:"message"`
	Reason     string          `json:"reason"`
}

// streamRelay relays one browser connection over one API cable connection
// (the console adds the credentials). It never recovers: when the API's
// stream ends, the browser's connection ends, and session_expired is
// passed through for the browser to recover once.
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

	api, err := s.api.DialCable(ctx)
	if err != nil {
		writeFrame(ctx, bws, browserFrame{Type: "error", Error: errorOf(err).Line()})
		_ = bws.Close(websocket.StatusNormalClosure, "stream unavailable")
		return
	}
	s.relays.Add(1)
	defer api.CloseNow()
	api.SetReadLimit(1 << 20)
	sub, _ := json.Marshal(map[string]string{"command": "subscribe", "identifier": tk.identifier})
	if err := api.Write(ctx, websocket.MessageText, sub); err != nil {
		writeFrame(ctx, bws, browserFrame{Type: "error", Error: "stream lost"})
		return
	}
	go s.relayInput(ctx, cancel, bws, api, tk.identifier)
	for {
		_, data, err := api.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				writeFrame(ctx, bws, browserFrame{Type: "error", Error: "stream ended"})
				_ = bws.Close(websocket.StatusNormalClosure, "stream ended")
			}
			return
		}
		var f cableFrame
		if json.Unmarshal(data, &f) != nil {
			continue
		}
		var out browserFrame
		switch {
		case f.Type == "confirm_subscription":
			out = browserFrame{Type: "confirm"}
		case f.Type == "reject_subscription":
			out = browserFrame{Type: "reject", Error: "subscription rejected"}
		case f.Type == "disconnect":
			writeFrame(ctx, bws, browserFrame{Type: "error", Error: "disconnected: " + f.Reason})
			_ = bws.Close(websocket.StatusNormalClosure, "disconnected")
			return
		case f.Type == "" && len(f.Message) > 0:
			out = browserFrame{Type: "message", Message: f.Message}
		default:
			continue // welcome, ping
		}
		if err := writeFrame(ctx, bws, out); err != nil {
			return
		}
	}
}

// relayInput forwards the browser's terminal input and resizes as
// ActionCable message commands.
func (s *Server) relayInput(ctx context.Context, cancel context.CancelFunc, bws, api *websocket.Conn, id string) {
	defer cancel()
	bws.SetReadLimit(1 << 20)
	for {
		_, data, err := bws.Read(ctx)
		if err != nil {
			return
		}
		var in struct {
			Action string `json:"action"`
			Data   string `json:"data,omitempty"`
			Cols   int    `json:"cols,omitempty"`
			Rows   int    `json:"rows,omitempty"`
		}
		if json.Unmarshal(data, &in) != nil || (in.Action != "input" && in.Action != "resize") {
			continue
		}
		payload, _ := json.Marshal(in)
		cmd, _ := json.Marshal(map[string]string{"command": "message", "identifier": id, "data": string(payload)})
		if err := api.Write(ctx, websocket.MessageText, cmd); err != nil {
			return
		}
	}
}

func writeFrame(ctx context.Context, ws *websocket.Conn, f browserFrame) error {
	b, _ := json.Marshal(f)
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, b)
}
