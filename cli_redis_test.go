package main

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// A fleet shares one breaker (contract §6): fibe processes with separate
// state directories (separate machines) and one Redis.

// fleetWorld is an emulator, a Redis, and users that each have their own
// state directory.
func fleetWorld(t *testing.T, cfg localapi.Config) (*world, *redistest.Server) {
	t.Helper()
	srv := redistest.Start(t)
	w := newWorld(t, cfg)
	w.env["FIBE_STATE_STORE"] = srv.URL(0)
	return w, srv
}

// machine runs fibe as machine i: the world's emulator, Redis and
// environment, its own state directory.
func (w *world) machine(i int) *world {
	m := &world{t: w.t, home: w.home, url: w.url, key: w.key, server: w.server, env: map[string]string{}}
	for k, v := range w.env {
		m.env[k] = v
	}
	m.env["XDG_STATE_HOME"] = filepath.Join(w.home, fmt.Sprintf("machine-%d", i))
	return m
}

func requestsReceived(s localapi.Stats, status string) int {
	n := 0
	for _, byStatus := range s.Requests {
		for st, c := range byStatus {
			if status == "" || st == status {
				n += c
			}
		}
	}
	return n
}

func TestFleetSendsFiveRequestsToADeadMarquee(t *testing.T) {
	t.Parallel()
	w, srv := fleetWorld(t, localapi.Config{Chaos: "outage=marquee/prod-eu@0s+1h"})
	for i := 0; i < 20; i++ {
		r := w.machine(i).run("mq", "get", "prod-eu", "--max-retries", "0")
		if r.code != 12 && r.code != 9 {
			t.Fatalf("machine %d: %s", i, r)
		}
		if i >= 5 && r.code != 9 {
			t.Fatalf("machine %d was not stopped by the shared breaker: %s", i, r)
		}
	}
	if n := requestsReceived(w.server.Stats(), ""); n != 5 {
		t.Fatalf("the fleet sent %d requests to the dead marquee, want 5", n)
	}
	// Any machine sees the breaker, names the store, and can reset it.
	m := w.machine(99)
	r := m.ok("breaker", "status")
	mustContain(t, "status", r.stdout, "marquee/prod-eu", "open")
	mustContain(t, "status", r.stderr, "State store: "+srv.URL(0))
	m.ok("breaker", "reset", "marquee/prod-eu")
	if r := w.machine(0).ok("breaker", "status"); strings.Contains(r.stdout, "open") {
		t.Fatalf("not reset for another machine: %s", r)
	}
}

// Half-open, exactly 2 of 50 processes started at once send a probe; the
// others fail fast with CIRCUIT_OPEN.
func TestFleetHalfOpenAdmitsTwoOfFifty(t *testing.T) {
	t.Parallel()
	// The probes hang, so that every process starts while they are in flight.
	w, srv := fleetWorld(t, localapi.Config{Chaos: "latency=1:25s"})
	host := strings.TrimPrefix(w.url, "http://")
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	// An open breaker whose open window has just ended.
	past := time.Now().Add(-time.Second).UnixMilli()
	rec := fmt.Sprintf(`{"s":2,"g":7,"rq":0,"ts":0,"tf":5,"cs":0,"cf":5,"te":0,"st":%d,"ex":%d}`, past-30000, past)
	if err := rdb.HSet(context.Background(), statestore.RedisKey(reliability.BreakersKey(host)), "marquee/prod-eu", rec).Err(); err != nil {
		t.Fatal(err)
	}
	procs := make([]*proc, 50)
	for i := range procs {
		procs[i] = w.machine(i).start("mq", "get", "prod-eu", "--max-retries", "0")
	}
	// Wait (bounded) until 48 have ended; the 2 probes hang for 25 s.
	exited := make(chan int, len(procs))
	for i, p := range procs {
		go func() { <-p.done; exited <- i }()
	}
	deadline := time.After(22 * time.Second)
	for n := 0; n < 48; n++ {
		select {
		case i := <-exited:
			if p := procs[i]; p.code != 9 {
				out, errOut := p.output()
				t.Fatalf("process %d: exit %d, want 9 (CIRCUIT_OPEN)\n%s\n%s", i, p.code, out, errOut)
			}
		case <-deadline:
			t.Fatalf("only %d of 48 processes failed fast", n)
		}
	}
	select {
	case i := <-exited:
		out, errOut := procs[i].output()
		t.Fatalf("a 49th process ended (exit %d): more than 2 probes were admitted\n%s\n%s", procs[i].code, out, errOut)
	default:
	}
	if n := requestsReceived(w.server.Stats(), ""); n != 0 {
		t.Fatalf("%d requests answered before the probes", n)
	}
}

// Ten machines that share the ledger take the slots of the window the
// fleet knows, then wait for the next one, and earn no 429.
func TestFleetLedgerEarnsNo429(t *testing.T) {
	t.Parallel()
	w, _ := fleetWorld(t, localapi.Config{RateLimit: 8, RateWindow: 3 * time.Second})
	w.machine(100).ok("mq", "get", "local", "--max-retries", "0") // the fleet learns the window
	var wg sync.WaitGroup
	results := make([]result, 10)
	for i := range results {
		wg.Add(1)
		m := w.machine(i)
		go func() {
			defer wg.Done()
			results[i] = m.run("mq", "get", "local", "--max-retries", "0")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("machine %d: %s", i, r)
		}
	}
	if n := requestsReceived(w.server.Stats(), "429"); n != 0 {
		t.Fatalf("%d answers were 429", n)
	}
}

// A store that goes away mid-run costs one short failure: the next command
// warns once, uses the file store and succeeds; a password never shows.
func TestFleetStoreKilledFallsBack(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, "--requirepass", "fleet-pw-123")
	w := newWorld(t, localapi.Config{})
	u := url.URL{Scheme: "redis", User: url.UserPassword("", "fleet-pw-123"), Host: srv.Addr, Path: "/0"}
	w.env["FIBE_STATE_STORE"] = u.String()
	r := w.ok("mq", "get", "local", "--debug")
	mustContain(t, "debug", r.stderr, "state store redis://:xxxxx@")
	if strings.Contains(r.stderr, "fleet-pw-123") || strings.Contains(r.stdout, "fleet-pw-123") {
		t.Fatalf("the password shows:\n%s", r)
	}
	if strings.Contains(r.stderr, "warning") {
		t.Fatalf("a warning with the store up:\n%s", r.stderr)
	}
	r = w.ok("config", "list")
	if strings.Contains(r.stdout, "fleet-pw-123") || !strings.Contains(r.stdout, "redis://:xxxxx@") {
		t.Fatalf("config list:\n%s", r)
	}
	srv.Stop()
	r = w.ok("mq", "get", "local")
	if n := strings.Count(r.stderr, "warning: state store"); n != 1 || strings.Contains(r.stderr, "fleet-pw-123") {
		t.Fatalf("want one warning without the password:\n%s", r.stderr)
	}
	mustContain(t, "warning", r.stderr, "using the file store")
}
