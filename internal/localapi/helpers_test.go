package localapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is the injectable clock: tests move time, never sleep.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// logSink collects Logf lines.
type logSink struct {
	mu    sync.Mutex
	lines []string
}

func (l *logSink) Logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *logSink) joined() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// env is an emulator on a real 127.0.0.1 socket and a client for it.
type env struct {
	t     *testing.T
	srv   *Server
	hs    *httptest.Server
	clock *fakeClock
	logs  *logSink
	key   string
	hc    *http.Client
}

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	e := &env{t: t, clock: newFakeClock(), logs: &logSink{}, key: DefaultAPIKey}
	if cfg.Now == nil {
		cfg.Now = e.clock.Now
	}
	if cfg.Logf == nil {
		cfg.Logf = e.logs.Logf
	}
	if cfg.APIKey != "" {
		e.key = cfg.APIKey
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	e.srv = srv
	e.hs = httptest.NewServer(srv.Handler())
	e.hs.Config.RegisterOnShutdown(srv.Close)
	t.Cleanup(func() {
		srv.Close()
		e.hs.Close()
	})
	e.hc = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: false}}
	return e
}

// resp is a finished answer.
type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r *resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object (%v): %q", err, r.body)
	}
	return m
}

// errCode returns error.code of an envelope.
func (r *resp) errCode(t *testing.T) string {
	t.Helper()
	obj, ok := r.json(t)["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error envelope in %s", r.body)
	}
	code, _ := obj["code"].(string)
	return code
}

func (r *resp) errDetails(t *testing.T) map[string]any {
	t.Helper()
	obj, _ := r.json(t)["error"].(map[string]any)
	d, _ := obj["details"].(map[string]any)
	return d
}

type reqOpt func(*http.Request)

func withHeader(k, v string) reqOpt { return func(r *http.Request) { r.Header.Set(k, v) } }
func withIdem(k string) reqOpt      { return withHeader("Idempotency-Key", k) }

// do sends a request with the key; body is JSON-encoded unless it is []byte.
func (e *env) do(method, path string, body any, opts ...reqOpt) *resp {
	e.t.Helper()
	r, err := e.try(method, path, body, opts...)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func (e *env) try(method, path string, body any, opts ...reqOpt) (*resp, error) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = e.hs.URL + path
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(req)
	}
	res, err := e.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &resp{status: res.StatusCode, header: res.Header, body: data}, nil
}

func expectStatus(t *testing.T, r *resp, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status %d, want %d; body %s", r.status, want, r.body)
	}
}

// createPG creates a playground and returns its JSON.
func (e *env) createPG(name, playspec string, extra map[string]any) map[string]any {
	e.t.Helper()
	obj := map[string]any{"name": name, "playspec_id": playspec}
	for k, v := range extra {
		obj[k] = v
	}
	r := e.do("POST", "/api/playgrounds", map[string]any{"playground": obj})
	expectStatus(e.t, r, http.StatusCreated)
	return r.json(e.t)
}

// pollUntil polls an async status URL, advancing the fake clock by step
// between polls, until a terminal status; it returns the statuses seen and
// the last body.
func (e *env) pollUntil(statusURL string, step time.Duration) ([]string, map[string]any) {
	e.t.Helper()
	var seen []string
	for i := 0; i < 200; i++ {
		r := e.do("GET", statusURL, nil)
		expectStatus(e.t, r, http.StatusOK)
		body := r.json(e.t)
		st, _ := body["status"].(string)
		if len(seen) == 0 || seen[len(seen)-1] != st {
			seen = append(seen, st)
		}
		if st == "success" || st == "error" {
			return seen, body
		}
		e.clock.Advance(step)
	}
	e.t.Fatalf("operation at %s never finished; saw %v", statusURL, seen)
	return nil, nil
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
