package cable

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

const testKey = "fibe_test_key_0123"

// keyProtocol is the subprotocol that carries key, as a client offers it.
func keyProtocol(key string) string {
	return KeyProtocolPrefix + base64.RawURLEncoding.EncodeToString([]byte(key))
}

// clock is an injectable clock the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func lookup(ref string) (int64, []string, bool) {
	switch ref {
	case "42", "preview":
		return 42, []string{"web", "worker", "db"}, true
	case "43":
		return 43, []string{"web"}, true
	}
	return 0, nil, false
}

func newTestServer(t testing.TB, mod func(*Config)) (*Server, string) {
	t.Helper()
	cfg := Config{
		ValidKey:     func(k string) bool { return k == testKey },
		ValidToken:   func(tok string) bool { return tok == "tok_good" },
		Lookup:       lookup,
		LineInterval: 10 * time.Millisecond,
		PingInterval: 20 * time.Millisecond,
	}
	if mod != nil {
		mod(&cfg)
	}
	srv := New(cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return srv, "ws" + strings.TrimPrefix(hs.URL, "http") + "/cable"
}

// peer is a bare-bones test client that reads frames with a bound.
type peer struct {
	t  testing.TB
	ws *websocket.Conn
}

func dialKey(t testing.TB, url string) *peer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{
		Subprotocols: []string{Protocol, keyProtocol(testKey)},
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { _ = ws.CloseNow() })
	if ws.Subprotocol() != Protocol {
		t.Fatalf("negotiated subprotocol %q, want %q", ws.Subprotocol(), Protocol)
	}
	p := &peer{t: t, ws: ws}
	if f := p.next(); f["type"] != "welcome" {
		t.Fatalf("first frame %v, want welcome", f)
	}
	return p
}

// next returns the next frame that is not a ping.
func (p *peer) next() map[string]any {
	p.t.Helper()
	for {
		f, err := p.read(2 * time.Second)
		if err != nil {
			p.t.Fatalf("read: %v", err)
		}
		if f["type"] != "ping" {
			return f
		}
	}
}

func (p *peer) read(within time.Duration) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	_, b, err := p.ws.Read(ctx)
	if err != nil {
		return nil, err
	}
	var f map[string]any
	if err := json.Unmarshal(b, &f); err != nil {
		p.t.Fatalf("frame %s: %v", b, err)
	}
	return f, nil
}

func (p *peer) subscribe(ident map[string]any) string {
	p.t.Helper()
	b, _ := json.Marshal(ident)
	cmd, _ := json.Marshal(command{Command: "subscribe", Identifier: string(b)})
	if err := p.ws.Write(context.Background(), websocket.MessageText, cmd); err != nil {
		p.t.Fatalf("subscribe: %v", err)
	}
	return string(b)
}

// lines reads n log messages and returns their sequence numbers and
// services.
func (p *peer) lines(n int) ([]int64, []string) {
	p.t.Helper()
	var seqs []int64
	var svcs []string
	for len(seqs) < n {
		f := p.next()
		msg, ok := f["message"].(map[string]any)
		if !ok || msg["type"] != "log" {
			p.t.Fatalf("frame %v, want a log message", f)
		}
		seqs = append(seqs, int64(msg["seq"].(float64)))
		svcs = append(svcs, msg["service"].(string))
	}
	return seqs, svcs
}

func TestStreamsLinesInOrderAfterConfirm(t *testing.T) {
	srv, url := newTestServer(t, nil)
	p := dialKey(t, url)
	ident := p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42})
	if f := p.next(); f["type"] != "confirm_subscription" || f["identifier"] != ident {
		t.Fatalf("got %v, want confirm_subscription of %s", f, ident)
	}
	seqs, _ := p.lines(10)
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("seqs %v are not consecutive", seqs)
		}
	}
	if st := srv.Stats(); st.Connections != 1 || st.Subscriptions != 1 || st.Lines < 10 {
		t.Fatalf("stats %+v", st)
	}
}

func TestPingsAtTheConfiguredInterval(t *testing.T) {
	_, url := newTestServer(t, nil)
	p := dialKey(t, url)
	for i := 0; i < 3; i++ {
		f, err := p.read(time.Second)
		if err != nil || f["type"] != "ping" {
			t.Fatalf("frame %v (%v), want ping", f, err)
		}
	}
}

func TestAuthentication(t *testing.T) {
	srv, url := newTestServer(t, nil)
	dial := func(u string, opts *websocket.DialOptions) int {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws, resp, err := websocket.Dial(ctx, u, opts)
		if err == nil {
			_ = ws.CloseNow()
			return http.StatusSwitchingProtocols
		}
		if resp == nil {
			t.Fatalf("dial %s: %v", u, err)
		}
		return resp.StatusCode
	}
	bearer := func(k string) *websocket.DialOptions {
		return &websocket.DialOptions{Subprotocols: []string{Protocol},
			HTTPHeader: http.Header{"Authorization": {"Bearer " + k}}}
	}
	cases := []struct {
		name string
		url  string
		opts *websocket.DialOptions
		want int
	}{
		{"nothing", url, nil, http.StatusUnauthorized},
		{"bad key subprotocol", url, &websocket.DialOptions{Subprotocols: []string{Protocol, keyProtocol("nope")}}, http.StatusUnauthorized},
		{"bad bearer", url, bearer("nope"), http.StatusUnauthorized},
		{"bad token", url + "?token=tok_bad", nil, http.StatusUnauthorized},
		{"key subprotocol", url, &websocket.DialOptions{Subprotocols: []string{Protocol, keyProtocol(testKey)}}, http.StatusSwitchingProtocols},
		{"bearer", url, bearer(testKey), http.StatusSwitchingProtocols},
		{"token", url + "?token=tok_good", &websocket.DialOptions{Subprotocols: []string{Protocol}}, http.StatusSwitchingProtocols},
	}
	for _, c := range cases {
		if got := dial(c.url, c.opts); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	if st := srv.Stats(); st.Unauthorized != 4 {
		t.Fatalf("unauthorized = %d, want 4", st.Unauthorized)
	}
}

func TestTailAndSinceReplayExactly(t *testing.T) {
	clk := &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, url := newTestServer(t, func(c *Config) { c.Now = clk.Now; c.Backlog = 20 })
	p := dialKey(t, url)

	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": "preview", "tail": 5})
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v", f)
	}
	if seqs, _ := p.lines(5); seqs[0] != 16 || seqs[4] != 20 {
		t.Fatalf("tail 5 of 20 lines gave %v", seqs)
	}

	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42, "since": 17})
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v", f)
	}
	if seqs, _ := p.lines(3); seqs[0] != 18 || seqs[2] != 20 {
		t.Fatalf("since 17 gave %v", seqs)
	}

	// Time moves on: both subscriptions get line 21, once each.
	clk.Advance(10 * time.Millisecond)
	if seqs, _ := p.lines(2); seqs[0] != 21 || seqs[1] != 21 {
		t.Fatalf("after one interval got %v, want 21 on both", seqs)
	}
}

func TestContainerChannelStreamsOneService(t *testing.T) {
	clk := &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	_, url := newTestServer(t, func(c *Config) { c.Now = clk.Now; c.Backlog = 60 })
	p := dialKey(t, url)
	p.subscribe(map[string]any{"channel": ContainerLogsChannel, "playground_id": 42, "service_name": "worker", "since": 0})
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v", f)
	}
	seqs, svcs := p.lines(5)
	for i := range svcs {
		if svcs[i] != "worker" {
			t.Fatalf("line %d from %q on the worker channel", seqs[i], svcs[i])
		}
		if i > 0 && seqs[i] <= seqs[i-1] {
			t.Fatalf("seqs %v not increasing", seqs)
		}
	}
}

func TestRejections(t *testing.T) {
	srv, url := newTestServer(t, nil)
	p := dialKey(t, url)
	for _, ident := range []map[string]any{
		{"channel": PlaygroundLogsChannel, "playground_id": 7},
		{"channel": "ChatChannel", "playground_id": 42},
		{"channel": ContainerLogsChannel, "playground_id": 42, "service_name": "nope"},
	} {
		p.subscribe(ident)
		if f := p.next(); f["type"] != "reject_subscription" {
			t.Fatalf("%v: got %v, want reject_subscription", ident, f)
		}
	}
	srv.SetFaults(Faults{RejectRate: 1})
	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42})
	if f := p.next(); f["type"] != "reject_subscription" {
		t.Fatalf("with reject fault got %v", f)
	}
	if st := srv.Stats(); st.Rejections != 4 || st.Subscriptions != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestExpireBurstSendsNThenStops(t *testing.T) {
	srv, url := newTestServer(t, nil)
	srv.SetFaults(Faults{ExpireBurst: 7})
	p := dialKey(t, url)
	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42})
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v", f)
	}
	shapes := map[string]bool{}
	for i := 0; i < 7; i++ {
		f := p.next()
		msg, _ := f["message"].(map[string]any)
		if msg["status"] != "session_expired" {
			t.Fatalf("frame %d: %v, want session_expired", i, f)
		}
		shapes[str(msg["type"])] = true
	}
	if len(shapes) != 2 {
		t.Fatalf("expected both message shapes, saw %v", shapes)
	}
	// The session is gone: only pings follow, for several line intervals.
	for i := 0; i < 3; i++ {
		if f, err := p.read(time.Second); err != nil || f["type"] != "ping" {
			t.Fatalf("after the burst got %v (%v), want only pings", f, err)
		}
	}
	if st := srv.Stats(); st.Expiries != 7 {
		t.Fatalf("expiries = %d, want 7", st.Expiries)
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func TestDropRateClosesTheConnection(t *testing.T) {
	srv, url := newTestServer(t, nil)
	srv.SetFaults(Faults{DropRate: 1})
	p := dialKey(t, url)
	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42})
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v", f)
	}
	for {
		f, err := p.read(2 * time.Second)
		if err != nil {
			break
		}
		if f["type"] != "ping" {
			t.Fatalf("got %v before the drop", f)
		}
	}
	if st := srv.Stats(); st.Drops != 1 || st.Lines != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestDropAfterClosesTheConnection(t *testing.T) {
	srv, url := newTestServer(t, nil)
	p := dialKey(t, url)
	srv.SetFaults(Faults{DropAfter: 50 * time.Millisecond})
	start := time.Now()
	for {
		if _, err := p.read(2 * time.Second); err != nil {
			break
		}
	}
	if d := time.Since(start); d < 40*time.Millisecond {
		t.Fatalf("dropped after %v, want about 50ms", d)
	}
	if st := srv.Stats(); st.Drops != 1 {
		t.Fatalf("drops = %d", st.Drops)
	}
}

func TestNoPingSilencesPings(t *testing.T) {
	srv, url := newTestServer(t, nil)
	srv.SetFaults(Faults{NoPing: true})
	p := dialKey(t, url)
	p.subscribe(map[string]any{"channel": PlaygroundLogsChannel, "playground_id": 42})
	// Lines keep flowing for well over five ping intervals; none is a ping.
	deadline := time.Now().Add(120 * time.Millisecond)
	for time.Now().Before(deadline) {
		f, err := p.read(time.Second)
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if f["type"] == "ping" {
			t.Fatal("ping sent while pings are off")
		}
	}
	if st := srv.Stats(); st.Pings != 0 {
		t.Fatalf("pings = %d", st.Pings)
	}
	srv.SetFaults(Faults{})
	for {
		f, err := p.read(time.Second)
		if err != nil {
			t.Fatalf("no ping after pings were turned back on: %v", err)
		}
		if f["type"] == "ping" {
			break
		}
	}
}
