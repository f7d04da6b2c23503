package client

import (
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

const testKey = "fibe_test_0123456789abcdef"

// seen is one request as the server received it.
type seen struct {
	Method, Path string
	Header       http.Header
	Body         string
}

// recorder counts and records requests on the server side.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (r *recorder) record(req *http.Request) seen {
	b, _ := io.ReadAll(req.Body)
	s := seen{Method: req.Method, Path: req.URL.RequestURI(), Header: req.Header.Clone(), Body: string(b)}
	r.mu.Lock()
	r.reqs = append(r.reqs, s)
	r.mu.Unlock()
	return s
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.reqs...)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// serve starts a server on 127.0.0.1 whose handler records every request.
func serve(t *testing.T, h func(w http.ResponseWriter, r *http.Request, s seen)) (*httptest.Server, *recorder) {
	t.Helper()
	return serveOn(t, "127.0.0.1", h)
}

// serveOn starts a recording server on a given loopback address (e.g.
// 127.0.0.2 for a second origin).
func serveOn(t *testing.T, ip string, h func(w http.ResponseWriter, r *http.Request, s seen)) (*httptest.Server, *recorder) {
	t.Helper()
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", ip, err)
	}
	rec := &recorder{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := rec.record(r)
		// A fresh connection per request: net/http re-sends an idempotent
		// request once when a reused keep-alive connection fails (see the
		// package doc), which would blur the exact attempt counts asserted here.
		w.Header().Set("Connection", "close")
		h(w, r, s)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, rec
}

func replyJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func apiError(w http.ResponseWriter, status int, code, msg string, details map[string]any) {
	replyJSON(w, status, map[string]any{"error": map[string]any{"code": code, "message": msg, "details": details}})
}

// resetConn kills the connection without an answer (a TCP reset).
func resetConn(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("server cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	conn.Close()
}

type testEnv struct {
	clock  *reliabilitytest.Clock
	events *eventLog
}

type eventLog struct {
	mu     sync.Mutex
	events []Event
}

func (l *eventLog) add(e Event) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

func (l *eventLog) kinds(k EventKind) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Event
	for _, e := range l.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// newTestClient returns a client on a fake clock (sleeps are instant and
// recorded) with a seeded jitter source; mod adjusts the options.
func newTestClient(t *testing.T, baseURL string, mod ...func(*Options)) (*Client, *testEnv) {
	t.Helper()
	env := &testEnv{clock: reliabilitytest.NewClock(time.Unix(1_700_000_000, 0)), events: &eventLog{}}
	opts := Options{
		BaseURL:   baseURL,
		APIKey:    testKey,
		UserAgent: "fibe-cli/test (linux/amd64)",
		Clock:     env.clock,
		Rand:      rand.New(rand.NewPCG(1, 2)),
		OnEvent:   env.events.add,
		Policy:    reliability.Policy{AttemptTimeout: 5 * time.Second},
	}
	for _, m := range mod {
		m(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, env
}

func mustError(t *testing.T, err error, code string) *Error {
	t.Helper()
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("error %v (%T) is not *Error", err, err)
	}
	if e.Code != code {
		t.Fatalf("code %s (%v), want %s", e.Code, e, code)
	}
	return e
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// waitFor polls cond until it holds or the bound passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func randFor(seed uint64) reliability.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// listOf answers a playground list lookup with the given playgrounds.
func listOf(w http.ResponseWriter, items ...map[string]any) {
	replyJSON(w, 200, map[string]any{"data": items, "meta": map[string]any{"page": 1, "per_page": 100, "total": len(items)}})
}

func isLookup(r *http.Request) bool {
	return r.Method == http.MethodGet && (r.URL.Path == "/api/playgrounds" || r.URL.Path == "/api/marquees")
}
