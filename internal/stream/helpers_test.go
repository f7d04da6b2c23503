package stream

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/fibegg/fibe/internal/client"
)

// seen is one request as the server received it.
type seen struct {
	Path   string
	Header http.Header
}

// recorder records requests on the server side.
type recorder struct {
	mu   sync.Mutex
	reqs []seen
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]seen(nil), r.reqs...)
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
		s := seen{Path: r.URL.RequestURI(), Header: r.Header.Clone()}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, s)
		rec.mu.Unlock()
		h(w, r, s)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, rec
}

// failuresOf is the consecutive failures of one breaker of c.
func failuresOf(t *testing.T, c *client.Client, resource string) int {
	t.Helper()
	bs, err := c.Breakers()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if b.Resource == resource {
			return b.ConsecutiveFailures
		}
	}
	return 0
}
