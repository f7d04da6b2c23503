package client

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

func TestRateLedgerMakesTheNextInvocationWait(t *testing.T) {
	var clockNow atomic.Int64
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		now := time.Unix(clockNow.Load(), 0)
		w.Header().Set("X-RateLimit-Limit", "600")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(20*time.Second).Unix(), 10))
		replyJSON(w, 200, map[string]any{"id": 1})
	})
	dir := t.TempDir()
	first, env := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir })
	clockNow.Store(env.clock.Now().Unix())
	_, meta, err := first.Me(ctxT(t))
	if err != nil || meta.RateLimit == nil || meta.RateLimit.Remaining != 0 || meta.RateLimit.Limit != 600 {
		t.Fatalf("%+v %v", meta, err)
	}
	if len(env.clock.Sleeps()) != 0 {
		t.Fatal("first request waited")
	}
	// A new invocation on the same state dir waits for the reset before sending.
	next, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir; o.Clock = env.clock; o.OnEvent = env.events.add })
	if _, _, err := next.Me(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	sleeps := env.clock.Sleeps()
	if len(sleeps) != 1 || sleeps[0] != 20*time.Second || len(env.events.kinds(EventRateWait)) != 1 || rec.count() != 2 {
		t.Fatalf("sleeps %v, %d requests", sleeps, rec.count())
	}
}
