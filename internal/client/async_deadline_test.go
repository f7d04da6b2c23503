package client

import (
	"net/http"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// The poll deadline bounds everything done while waiting, a poll's own
// retries and their Retry-After sleeps included: a status URL that starts
// answering 503 with a long Retry-After must not stretch a short wait into
// the retry budget's worth of sleeps. Real time here, since the deadline
// is what a real user waits.
func TestPollDeadlineBoundsTheRetriesOfAPoll(t *testing.T) {
	_, url := asyncServer(t, "", []func(http.ResponseWriter){
		status("running"),
		func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "20")
			apiError(w, 503, "INTERNAL_ERROR", "maintenance", nil)
		},
	})
	c, _ := newTestClient(t, url, func(o *Options) { o.Clock = reliability.SystemClock() })
	started := time.Now()
	_, _, err := c.Playgrounds.Action(ctxT(t), "pg", "rollout", false, MutationOptions{},
		WaitOptions{Timeout: 300 * time.Millisecond, PollInterval: 50 * time.Millisecond})
	e := mustError(t, err, CodeAsyncTimeout)
	if e.RequestID != "req_5c1d" {
		t.Fatalf("%+v", e)
	}
	if took := time.Since(started); took > 5*time.Second {
		t.Fatalf("gave up after %s; the deadline was 300ms", took)
	}
}
