package mcpserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/localapi"
)

// After notifications/cancelled the server sends no response for that
// call (the work stops, as before); other calls are answered.
func TestCancelledCallGetsNoResponse(t *testing.T) {
	w := newWorld(t, localapi.Config{Speed: 0.05})
	w.ok("fibe_playgrounds_create", map[string]any{"name": "cx", "playspec": "web", "marquee": "local", "wait": false}, nil)

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ss, err := New(w.cfg).Connect(ctx, NoAnswerAfterCancel(&mcp.IOTransport{Reader: inR, Writer: outW}), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close(); _ = inW.Close() })

	var mu sync.Mutex
	var lines []string
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
		}
	}()
	seen := func(sub string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range lines {
			if strings.Contains(l, sub) {
				return true
			}
		}
		return false
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	waitFor(t, 10*time.Second, func() bool { return seen(`"id":1`) })
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	before := w.reqs.count("GET", "/api/playgrounds/cx/status")
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fibe_playgrounds_wait","arguments":{"playground":"cx","call_budget":0}}}`)
	waitFor(t, 10*time.Second, func() bool { return w.reqs.count("GET", "/api/playgrounds/cx/status") > before })
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"user"}}`)
	// The wait stops: its polls (every 10ms) cease.
	last, quietSince := -1, time.Now()
	waitFor(t, 5*time.Second, func() bool {
		if n := w.reqs.count("GET", "/api/playgrounds/cx/status"); n != last {
			last, quietSince = n, time.Now()
		}
		return time.Since(quietSince) > 200*time.Millisecond
	})
	send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	waitFor(t, 5*time.Second, func() bool { return seen(`"id":3`) && seen(`"id":4`) })
	if seen(`"id":2`) {
		t.Fatalf("the cancelled call was answered:\n%s", strings.Join(lines, "\n"))
	}
}
