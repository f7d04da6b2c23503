package fibe_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/statestore/redistest"
	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// A shared store that cannot be reached costs one EventStoreFallback,
// never a request: the client goes on with its local store, and the
// event does not show the store's password.
func TestStateStoreFallsBackOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there
	srv := server(t)
	var ev events
	c := srv.Client(fibe.WithStateStore("redis://fleet:sekret-pw@"+addr+"/0"), fibe.WithEventHook(ev.add))
	defer c.Close()
	ctx := ctxT(t)
	for range 3 {
		if _, _, err := c.Me.Get(ctx); err != nil {
			t.Fatal(err)
		}
	}
	falls := ev.of(fibe.EventStoreFallback)
	if len(falls) != 1 {
		t.Fatalf("%d fallback events", len(falls))
	}
	if strings.Contains(falls[0].Reason+falls[0].Resource, "sekret-pw") || falls[0].Kind.String() != "store-fallback" {
		t.Fatalf("fallback event %+v", falls[0])
	}
}

// Two clients on one Redis share a breaker, as a fleet of processes does.
func TestStateStoreSharesBreakers(t *testing.T) {
	rs := redistest.Start(t)
	srv := server(t, fibetest.WithChaos("outage=marquee/prod-eu@0s+1h"))
	policy := fibe.WithPolicy(fibe.Policy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, BreakerThreshold: 2,
		MaxRetries: fibe.NoRetries})
	var ev events
	a := srv.Client(policy, fibe.WithStateStore(rs.URL(3)), fibe.WithEventHook(ev.add))
	b := srv.Client(policy, fibe.WithStateStore(rs.URL(3)), fibe.WithEventHook(ev.add))
	defer a.Close()
	defer b.Close()
	ctx := ctxT(t)
	for range 2 {
		if _, _, err := a.Marquees.Get(ctx, "prod-eu"); !fibe.IsUnavailable(err) {
			t.Fatalf("a: %v", err)
		}
	}
	sent := sum(requests(srv, "GET /api/marquees/{id}"))
	if _, _, err := b.Marquees.Get(ctx, "prod-eu"); !fibe.IsCircuitOpen(err) {
		t.Fatalf("b: %v", err)
	}
	if now := sum(requests(srv, "GET /api/marquees/{id}")); now != sent {
		t.Fatalf("b sent %d requests past the shared open breaker", now-sent)
	}
	if n := len(ev.of(fibe.EventStoreFallback)); n != 0 {
		t.Fatalf("%d fallbacks with Redis up", n)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.Me.Get(ctx); !fibe.IsCancelled(err) {
		t.Fatalf("after Close: %v", err)
	}
}
