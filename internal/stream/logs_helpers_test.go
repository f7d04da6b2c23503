package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi/cable"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/testio"
)

const streamKey = "fibe_stream_test_key_42"

// streamAPI is a small Fibe API on 127.0.0.1: the playground resource,
// /api/cable_url minting stream tokens, and the real cable server at
// /cable. Faults are injected on the server side of real connections.
type streamAPI struct {
	t      testing.TB
	cable  *cable.Server
	srv    *httptest.Server
	tokens sync.Map // minted stream tokens

	cableURLCalls atomic.Int64
	noCableURL    atomic.Bool  // /api/cable_url answers 404
	badTokens     atomic.Bool  // minted tokens are not accepted by /cable
	cable503      atomic.Int64 // /cable answers 503 this many more times; negative: always
	cable503Sent  atomic.Int64 // 503s answered on /cable
	retryAfter    string       // Retry-After on those 503s, if any
	cableHost     string       // host:port the cable URLs point at; "" → the API's
	playground503 atomic.Bool  // GET /api/playgrounds/{ref} answers 503

	// beforeCableURL, when set, runs before /api/cable_url answers call n,
	// so a test can hold a client's recovery until the server is done.
	beforeCableURL func(n int64)
	// cableHandler, when set, answers /cable instead of the cable server.
	cableHandler http.HandlerFunc
}

type streamAPIConfig struct {
	line, ping time.Duration
	backlog    int
}

func newStreamAPI(t testing.TB, cfg streamAPIConfig) *streamAPI {
	t.Helper()
	if cfg.line == 0 {
		cfg.line = 5 * time.Millisecond
	}
	if cfg.ping == 0 {
		cfg.ping = 500 * time.Millisecond
	}
	a := &streamAPI{t: t}
	a.cable = cable.New(cable.Config{
		ValidKey: func(k string) bool { return k == streamKey },
		ValidToken: func(tok string) bool {
			_, ok := a.tokens.Load(tok)
			return ok && !a.badTokens.Load()
		},
		Lookup: func(ref string) (int64, []string, bool) {
			if ref == "42" || ref == "preview" {
				return 42, []string{"web", "worker"}, true
			}
			return 0, nil, false
		},
		LineInterval: cfg.line,
		PingInterval: cfg.ping,
		Backlog:      cfg.backlog,
		Seed:         7,
	})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/playgrounds/{ref}", func(w http.ResponseWriter, r *http.Request) {
		if a.playground503.Load() {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": map[string]any{"code": "INTERNAL_ERROR", "message": "down"}})
			return
		}
		if r.PathValue("ref") == "stopped" {
			writeJSON(w, http.StatusOK, map[string]any{"id": 43, "name": "stopped", "status": "stopped", "marquee_name": "prod-eu"})
			return
		}
		if ref := r.PathValue("ref"); ref != "42" && ref != "preview" {
			writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": "RESOURCE_NOT_FOUND", "message": "no such playground"}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": 42, "name": "preview", "status": "running",
			"marquee_id": 3, "marquee_name": "prod-eu",
			"services": []map[string]any{{"name": "web", "running": true}, {"name": "worker", "running": true}}})
	})
	mux.HandleFunc("GET /api/cable_url", func(w http.ResponseWriter, r *http.Request) {
		if a.noCableURL.Load() {
			writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": "RESOURCE_NOT_FOUND", "message": "no stream tokens"}})
			return
		}
		n := a.cableURLCalls.Add(1)
		if a.beforeCableURL != nil {
			a.beforeCableURL(n)
		}
		tok := fmt.Sprintf("tok_secret_%d", n)
		a.tokens.Store(tok, true)
		host := r.Host
		if a.cableHost != "" {
			host = a.cableHost
		}
		writeJSON(w, http.StatusOK, map[string]any{"url": "ws://" + host + "/cable?token=" + tok,
			"expires_at": time.Now().Add(time.Minute).UTC().Format(time.RFC3339)})
	})
	mux.HandleFunc("/cable", func(w http.ResponseWriter, r *http.Request) {
		if a.cableHandler != nil {
			a.cableHandler(w, r)
			return
		}
		if n := a.cable503.Load(); n != 0 {
			a.cable503.CompareAndSwap(n, max(n-1, -1))
			a.cable503Sent.Add(1)
			if a.retryAfter != "" {
				w.Header().Set("Retry-After", a.retryAfter)
			}
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": map[string]any{"code": "INTERNAL_ERROR", "message": "down"}})
			return
		}
		a.cable.ServeHTTP(w, r)
	})
	a.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		a.cable.Close()
		a.srv.Close()
	})
	return a
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// client is a Client for a with short backoff delays; mod adjusts the options.
func (a *streamAPI) client(key string, mod ...func(*client.Options)) (*client.Client, *testio.Buffer) {
	a.t.Helper()
	trace := &testio.Buffer{}
	opts := client.Options{BaseURL: a.srv.URL, APIKey: key, Debug: trace,
		Policy: reliability.Policy{BaseDelay: 2 * time.Millisecond, MaxDelay: 20 * time.Millisecond, AttemptTimeout: 5 * time.Second}}
	for _, m := range mod {
		m(&opts)
	}
	c, err := client.New(opts)
	if err != nil {
		a.t.Fatal(err)
	}
	return c, trace
}

var errEnough = errors.New("enough lines")

// follow streams playground "preview" until stop says enough (emit then
// returns errEnough), FollowLogs fails, or a generous bound passes (a test
// failure).
func follow(t *testing.T, c *client.Client, opts FollowOptions, stop func(lines []LogLine) bool) ([]LogLine, error) {
	t.Helper()
	return followRef(t, c, "preview", opts, stop)
}

func followRef(t *testing.T, c *client.Client, ref string, opts FollowOptions, stop func(lines []LogLine) bool) ([]LogLine, error) {
	t.Helper()
	if opts.PingInterval == 0 {
		opts.PingInterval = 10 * time.Second // stale detection has its own test
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var lines []LogLine
	err := Follow(ctx, c, ref, opts, func(l LogLine) error {
		lines = append(lines, l)
		if stop(lines) {
			return errEnough
		}
		return nil
	})
	if ctx.Err() != nil {
		t.Fatalf("stream did not finish within the bound (%d lines): %v", len(lines), err)
	}
	return lines, err
}

func atLeast(n int) func([]LogLine) bool {
	return func(l []LogLine) bool { return len(l) >= n }
}

// assertContiguous checks that seqs run first, first+1, ... with no gap
// and no repeat.
func assertContiguous(t *testing.T, lines []LogLine, first int64) {
	t.Helper()
	for i, l := range lines {
		if want := first + int64(i); l.Seq != want {
			seqs := make([]int64, len(lines))
			for j := range lines {
				seqs[j] = lines[j].Seq
			}
			t.Fatalf("line %d has seq %d, want %d (seqs %v)", i, l.Seq, want, seqs)
		}
	}
}

func mustCode(t *testing.T, err error, code string) *client.Error {
	t.Helper()
	e, ok := client.AsError(err)
	if !ok || e.Code != code {
		t.Fatalf("error %v (%T), want a *client.Error with code %s", err, err, code)
	}
	return e
}
