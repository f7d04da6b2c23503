package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// world is a server connected in memory to the SDK's client, in front of
// the emulator on a real socket.
type world struct {
	t    *testing.T
	emu  *localapi.Server
	url  string
	cs   *mcp.ClientSession
	reqs *requestLog

	progressMu sync.Mutex
	progress   map[any][]*mcp.ProgressNotificationParams

	callsDone chan string // the server's tools/call handlers, as they return

	skew   atomic.Int64 // added to the emulator's clock (advance)
	cfg    Config       // the server's, to build another one over another transport
	server *mcp.Server  // to connect more sessions
}

// advance moves the emulator's clock: simulated work started earlier is
// that much further along.
func (w *world) advance(d time.Duration) { w.skew.Add(int64(d)) }

// requestLog records every API request the emulator received.
type requestLog struct {
	mu   sync.Mutex
	list []loggedRequest
}

type loggedRequest struct {
	Method, Path, Key string
	Query             string // the raw query
	Body              []byte
	At                time.Time
}

func (l *requestLog) add(r *http.Request) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.list = append(l.list, loggedRequest{Method: r.Method, Path: r.URL.Path, Key: r.Header.Get("Idempotency-Key"),
		Query: r.URL.RawQuery, Body: body, At: time.Now()})
}

func (l *requestLog) all() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]loggedRequest(nil), l.list...)
}

func (l *requestLog) count(method, pathPrefix string) int {
	n := 0
	for _, r := range l.all() {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, pathPrefix) {
			n++
		}
	}
	return n
}

type worldOpt func(*Config, *client.Options)

func newWorld(t *testing.T, lcfg localapi.Config, opts ...worldOpt) *world {
	t.Helper()
	return newWorldClient(t, lcfg, nil, opts...)
}

// newWorldClient is newWorld with the MCP client's own options (handlers
// of elicitation, resource updates); progress is always recorded.
func newWorldClient(t *testing.T, lcfg localapi.Config, copts *mcp.ClientOptions, opts ...worldOpt) *world {
	t.Helper()
	if lcfg.Speed == 0 {
		lcfg.Speed = 100
	}
	w := &world{t: t, reqs: &requestLog{}, progress: map[any][]*mcp.ProgressNotificationParams{}, callsDone: make(chan string, 100)}
	if lcfg.Now == nil {
		lcfg.Now = func() time.Time { return time.Now().Add(time.Duration(w.skew.Load())) }
	}
	emu, err := localapi.New(lcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emu.Close)
	w.emu = emu
	h := emu.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			w.reqs.add(r)
		}
		// One request per connection: net/http re-sends an idempotent
		// request once when a reused connection drops, and these tests
		// count requests exactly.
		rw.Header().Set("Connection", "close")
		h.ServeHTTP(rw, r)
	}))
	t.Cleanup(srv.Close)
	w.url = srv.URL

	store := reliability.NewMemoryStore()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(transport.CloseIdleConnections)
	base := client.Options{BaseURL: srv.URL, APIKey: localapi.DefaultAPIKey, Store: store, Transport: transport,
		Policy: reliability.Policy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond,
			PollInterval: 10 * time.Millisecond, PollTimeout: 20 * time.Second, AttemptTimeout: 5 * time.Second}}
	cfg := Config{}
	for _, o := range opts {
		o(&cfg, &base)
	}
	cfg.Client = func(onEvent func(client.Event), _ bool) (*client.Client, error) {
		o := base
		o.OnEvent = onEvent
		return client.New(o)
	}
	w.cfg = cfg
	server := New(cfg)
	w.server = server
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				w.callsDone <- req.GetParams().(*mcp.CallToolParamsRaw).Name
			}
			return res, err
		}
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	if copts == nil {
		copts = &mcp.ClientOptions{}
	}
	copts.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		w.progressMu.Lock()
		defer w.progressMu.Unlock()
		w.progress[r.Params.ProgressToken] = append(w.progress[r.Params.ProgressToken], r.Params)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := cl.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	w.cs = cs
	return w
}

// legacySession connects another client to the world's server that speaks
// the 2025-06-18 revision (as most clients in the field do), with copts.
func (w *world) legacySession(copts *mcp.ClientOptions) *mcp.ClientSession {
	w.t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := w.server.Connect(context.Background(), st, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "legacy", Version: "1"}, copts).Connect(context.Background(), ct,
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// call calls a tool and fails the test on a protocol error.
func (w *world) call(name string, args map[string]any) *mcp.CallToolResult {
	w.t.Helper()
	res, err := w.cs.CallTool(ctxT(w.t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		w.t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

// ok calls a tool that must succeed and decodes its structured content.
func (w *world) ok(name string, args map[string]any, out any) *mcp.CallToolResult {
	w.t.Helper()
	res := w.call(name, args)
	if res.IsError {
		w.t.Fatalf("%s: tool error: %s", name, text(res))
	}
	checkOutput(w.t, name, res.StructuredContent)
	checkText(w.t, name, res)
	if out != nil {
		decode(w.t, res.StructuredContent, out)
	}
	return res
}

// checkOutput validates a success against the tool's output schema.
func checkOutput(t *testing.T, name string, content any) {
	t.Helper()
	for _, tool := range Tools() {
		if tool.Name != name {
			continue
		}
		resolved, err := tool.Output.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema: %v", name, err)
		}
		var doc any
		decode(t, content, &doc)
		if err := resolved.Validate(doc); err != nil {
			t.Fatalf("%s: result does not match the output schema: %v\n%v", name, err, doc)
		}
		return
	}
	t.Fatalf("no tool %s", name)
}

// checkText checks the text content is the structured content, or for a
// list (or any result that is not an object) the value it wraps: what
// --json prints.
func checkText(t *testing.T, name string, res *mcp.CallToolResult) {
	t.Helper()
	var structured map[string]any
	decode(t, res.StructuredContent, &structured)
	var txt any
	if err := json.Unmarshal([]byte(text(res)), &txt); err != nil {
		t.Fatalf("%s: text content is not JSON: %v\n%s", name, err, text(res))
	}
	want := any(structured)
	if items, ok := structured["items"]; ok {
		if _, isList := txt.([]any); isList {
			want = items
		}
	} else if v, ok := structured["value"]; ok && len(structured) == 1 {
		want = v
	}
	if !reflect.DeepEqual(txt, want) {
		t.Fatalf("%s: text content %v is not the structured content %v", name, txt, want)
	}
}

// fail calls a tool that must fail and returns its error body.
func (w *world) fail(name string, args map[string]any) map[string]any {
	w.t.Helper()
	res := w.call(name, args)
	if !res.IsError {
		w.t.Fatalf("%s succeeded: %s", name, text(res))
	}
	var doc struct {
		Error map[string]any `json:"error"`
	}
	decode(w.t, res.StructuredContent, &doc)
	if doc.Error == nil {
		w.t.Fatalf("%s: no error document: %s", name, text(res))
	}
	// Clients validate a failure's structuredContent too.
	for _, tool := range Tools() {
		if tool.Name == name {
			resolved, err := orError(tool.Output).Resolve(nil)
			if err != nil {
				w.t.Fatal(err)
			}
			var any_ any
			decode(w.t, res.StructuredContent, &any_)
			if err := resolved.Validate(any_); err != nil {
				w.t.Fatalf("%s: error document does not match the output schema: %v", name, err)
			}
		}
	}
	return doc.Error
}

func (w *world) progressOf(token any) []*mcp.ProgressNotificationParams {
	w.progressMu.Lock()
	defer w.progressMu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), w.progress[token]...)
}

func decode(t *testing.T, v any, out any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// createPG creates a playground on a marquee and waits until it runs.
func (w *world) createPG(name, playspec, marquee string) {
	w.t.Helper()
	w.ok("fibe_playgrounds_create", map[string]any{"name": name, "playspec": playspec, "marquee": marquee}, nil)
}
