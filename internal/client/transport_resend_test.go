package client

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/testio"
)

// net/http re-sends an idempotent request once, on a new connection, when a
// reused keep-alive connection fails before answering. The policy counts
// that as one attempt: one breaker outcome, one slot of the budget; the
// server may see the request twice, and the debug trace says so.
func TestTransportResendOnAStaleConnectionIsOneAttempt(t *testing.T) {
	var mu sync.Mutex
	conns := map[string]int{} // requests seen per client connection
	served := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conns[r.RemoteAddr]++
		reused := conns[r.RemoteAddr] > 1
		served++
		first := served == 1
		mu.Unlock()
		switch {
		case first:
			replyJSON(w, 200, map[string]any{"id": 1}) // the connection stays open for reuse
		case reused:
			resetConn(t, w) // the kept-alive connection dies under the next request
		default:
			apiError(w, 503, "INTERNAL_ERROR", "busy", nil)
		}
	}))
	t.Cleanup(srv.Close)

	var trace testio.Buffer
	c, env := newTestClient(t, srv.URL, func(o *Options) {
		o.Debug = &trace
		o.Policy.MaxRetries = reliability.NoRetries
	})
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Me(ctxT(t))
	if e := mustError(t, err, CodeInternal); e.Status != 503 {
		t.Fatalf("%+v", e)
	}
	mu.Lock()
	total := served
	mu.Unlock()
	if total != 3 {
		t.Fatalf("server saw %d requests, want 3 (the second call went out twice)", total)
	}
	if n := len(env.events.kinds(EventAttempt)); n != 2 {
		t.Fatalf("%d attempts reported, want 2 (one per call)", n)
	}
	bs, _ := c.Breakers()
	if len(bs) != 1 || bs[0].ConsecutiveFailures != 1 {
		t.Fatalf("breakers %+v: want exactly one failure for the one attempt", bs)
	}
	if !strings.Contains(trace.String(), "net/http re-sent this attempt 1 time(s)") {
		t.Fatalf("trace does not show the transport's re-send:\n%s", trace.String())
	}
}
