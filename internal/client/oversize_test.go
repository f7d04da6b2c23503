package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// An oversized 2xx body is an answer, not a lost connection: asking again
// fetches the same bytes, and the server is up, so the breaker must not
// count it as a failure.
func TestOversizedSuccessBodyIsNotRetriedNorCountedByTheBreaker(t *testing.T) {
	big := `{"data":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		w.Header().Set("X-Request-Id", "req_big")
		w.WriteHeader(200)
		_, _ = w.Write([]byte(big))
	})
	// Reading 16 MiB under the race detector on a loaded machine may take
	// longer than the helper's 5 s attempt timeout; the size is what is tested.
	c, _ := newTestClient(t, srv.URL, func(o *Options) { o.Policy.AttemptTimeout = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, _, err := c.Playgrounds.List(ctx, ListOptions{})
	e := mustError(t, err, CodeInvalidResponse)
	if n := rec.count(); n != 1 || e.Retryable {
		t.Fatalf("sent %d times (retryable %v), want once and terminal", n, e.Retryable)
	}
	if e.RequestID != "req_big" || e.Status != 200 {
		t.Fatalf("the error lost its answer's request id: %+v", e)
	}
	if s := c.breakers.Status(c.HostResource()); s.ConsecutiveFailures != 0 {
		t.Fatalf("breaker counted the answer as a failure: %+v", s)
	}
}
