package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/localapi"
)

// Over streamable HTTP, a call the client cancelled (notifications/cancelled)
// gets no response either: the SDK's client, on a real loopback server, with
// an HTTP transport that keeps reading a call's event stream after the call
// is cancelled (as the TypeScript SDK's client does), sees that stream end
// without the response; the work stops, and the session goes on.
func TestCancelledCallOverHTTPGetsNoResponse(t *testing.T) {
	for _, version := range []string{"", "2025-06-18"} {
		name := version
		if name == "" {
			name = "client default"
		}
		t.Run(name, func(t *testing.T) { cancelOverHTTP(t, version) })
	}
}

func cancelOverHTTP(t *testing.T, version string) {
	w := newWorld(t, localapi.Config{Speed: 0.05})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "cx", "playspec": "web", "marquee": "local", "wait": false}, nil)

	const token = "test-token"
	srv := httptest.NewServer(HTTPHandler(New(w.cfg), HTTPOptions{Token: token}))
	t.Cleanup(srv.Close)
	wire := &wireLog{}
	base := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(base.CloseIdleConnections)
	transport := &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp",
		HTTPClient: &http.Client{Transport: keepReading{base: base, token: token, log: wire}}}
	ctx := ctxT(t)
	var progressed atomic.Int32
	copts := &mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		progressed.Add(1)
	}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http", Version: "1"}, copts).Connect(ctx, transport,
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })

	before := w.reqs.count("GET", "/api/playgrounds/cx/status")
	callCtx, cancelCall := context.WithCancel(ctx)
	callErr := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "fibe_playgrounds_wait", Meta: mcp.Meta{"progressToken": "w"},
			Arguments: map[string]any{"playground": "cx", "call_budget": 0}})
		callErr <- err
	}()
	// A progress notification has come on the call's stream: the client
	// has its response headers, and reads the stream from here on.
	waitFor(t, 10*time.Second, func() bool {
		return w.reqs.count("GET", "/api/playgrounds/cx/status") > before && progressed.Load() > 0
	})
	cancelCall()
	select {
	case err := <-callErr:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("the cancelled call returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	// The wait stops: its polls (every 10ms) cease.
	last, quietSince := -1, time.Now()
	waitFor(t, 5*time.Second, func() bool {
		if n := w.reqs.count("GET", "/api/playgrounds/cx/status"); n != last {
			last, quietSince = n, time.Now()
		}
		return time.Since(quietSince) > 200*time.Millisecond
	})
	// The cancelled call's stream ends, without its response.
	call := wire.find("tools/call", "fibe_playgrounds_wait")
	if call == nil {
		t.Fatal("the call was not seen on the wire")
	}
	select {
	case <-call.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call's event stream did not end")
	}
	if msg, ok := call.answered(); ok {
		t.Fatalf("the cancelled call (id %s) was answered: %s", call.id, msg)
	}
	// The session goes on: the next call is answered, on its own stream.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fibe_playgrounds_get", Arguments: map[string]any{"playground": "cx"}})
	if err != nil || res.IsError {
		t.Fatalf("the next call: %v %v", err, res)
	}
	if next := wire.find("tools/call", "fibe_playgrounds_get"); next == nil {
		t.Fatal("the next call was not seen on the wire")
	} else if _, ok := next.answered(); !ok {
		t.Fatal("the next call's answer was not on its stream")
	}
}

// keepReading is the client's HTTP transport: it adds the bearer token,
// detaches each response body from the request's context once the headers
// have come (so a call's event stream is read to its end after the call is
// cancelled) and records what every tools/call POST received.
type keepReading struct {
	base  http.RoundTripper
	token string
	log   *wireLog
}

func (k keepReading) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	stop := context.AfterFunc(r.Context(), cancel) // until the headers come
	r = r.Clone(ctx)
	r.Header.Set("Authorization", "Bearer "+k.token)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if r.Method == http.MethodPost && r.Body != nil {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(b))
		_ = json.Unmarshal(b, &msg)
	}
	resp, err := k.base.RoundTrip(r)
	stop()
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	if msg.Method != "tools/call" {
		return resp, nil
	}
	c := &wireCall{method: msg.Method, tool: msg.Params.Name, id: string(msg.ID), ended: make(chan struct{})}
	k.log.mu.Lock()
	k.log.calls = append(k.log.calls, c)
	k.log.mu.Unlock()
	resp.Body = &teeBody{ReadCloser: resp.Body, call: c}
	return resp, nil
}

type wireLog struct {
	mu    sync.Mutex
	calls []*wireCall
}

func (l *wireLog) find(method, tool string) *wireCall {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		if c.method == method && c.tool == tool {
			return c
		}
	}
	return nil
}

// wireCall is one call's POST and the event stream it received.
type wireCall struct {
	method, tool, id string
	mu               sync.Mutex
	body             bytes.Buffer
	ended            chan struct{} // closed at the stream's end
	endOnce          sync.Once
}

// answered returns the response to the call found in its stream, if any.
func (c *wireCall) answered() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := bufio.NewScanner(bytes.NewReader(c.body.Bytes()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal([]byte(data), &m) == nil && string(m.ID) == c.id && (m.Result != nil || m.Error != nil) {
			return strings.TrimSpace(data), true
		}
	}
	return "", false
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

type teeBody struct {
	io.ReadCloser
	call *wireCall
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.call.mu.Lock()
	b.call.body.Write(p[:n])
	b.call.mu.Unlock()
	if err != nil {
		b.call.endOnce.Do(func() { close(b.call.ended) })
	}
	return n, err
}
