package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// failuresOf is the consecutive failures of one breaker of c.
func failuresOf(t *testing.T, c *Client, resource string) int {
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

// A stream's failures outside a handshake spend the same budget as a
// request's retries, each after its backoff; Restart gives it back.
func TestStreamBudgetCountsFailuresOutsideHandshakes(t *testing.T) {
	c, env := newTestClient(t, "http://127.0.0.1:1", func(o *Options) {
		o.Policy = reliability.Policy{MaxRetries: 2, BaseDelay: time.Second, MaxDelay: 4 * time.Second}
	})
	b := c.NewStreamBudget("marquee/m")
	fail := func() (*Error, bool) {
		b.b.attempt() // the connection that failed was an attempt
		return b.Failed(context.Background(), &Error{Code: CodeSessionExpired, Message: "session expired"})
	}
	for i := 0; i < 2; i++ {
		if err, spent := fail(); err != nil || spent {
			t.Fatalf("failure %d ended the stream: %v", i+1, err)
		}
	}
	err, spent := fail()
	if !spent || err.Code != CodeSessionExpired || err.Resource != "marquee/m" {
		t.Fatalf("third failure: %v (spent %v), want the budget spent", err, spent)
	}
	if n := len(env.clock.Sleeps()); n != 2 {
		t.Fatalf("%d backoff waits, want 2", n)
	}
	b.Restart()
	if err, spent := fail(); err != nil || spent {
		t.Fatalf("after Restart: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err, spent := b.Failed(ctx, &Error{Code: CodeNetwork, Message: "drop"}); spent || err == nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v (spent %v)", err, spent)
	}
}
