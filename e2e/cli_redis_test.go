package e2e

import (
	"context"
	"fmt"
	"net/url"
	"os"
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

// fellBack reports whether a process gave up on the shared store (a store
// call over 200 ms, which a loaded test machine can cause): it then ran
// on its own file store, outside the fleet.
func fellBack(stderr string) bool { return strings.Contains(stderr, "warning: state store") }

func TestFleetSendsFiveRequestsToADeadMarquee(t *testing.T) {
	t.Parallel()
	w, srv := fleetWorld(t, localapi.Config{Chaos: "outage=marquee/prod-eu@0s+1h"})
	alone, failed := 0, 0
	for i := 0; i < 20; i++ {
		r := w.machine(i).run("mq", "get", "prod-eu", "--max-retries", "0")
		switch {
		case fellBack(r.stderr) && r.code == 12:
			alone++ // sent its one request outside the fleet
		case r.code == 12:
			failed++
		case r.code != 9:
			t.Fatalf("machine %d: %s", i, r)
		}
	}
	if failed != 5 {
		t.Fatalf("%d machines sent a failing request, want 5", failed)
	}
	if n := requestsReceived(w.server.Stats(), ""); n != 5+alone {
		t.Fatalf("the fleet sent %d requests to the dead marquee, want 5 (+%d from machines that fell back)", n, alone)
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

// 20 machines started all at once against a dead marquee: each request
// was admitted while the breaker was still closed (in flight when it
// opened), none is sent after it opened (every CIRCUIT_OPEN sent nothing),
// and the machine after them sends nothing.
func TestFleetStartedAtOnceSendsNothingAfterTheBreakerOpens(t *testing.T) {
	t.Parallel()
	w, _ := fleetWorld(t, localapi.Config{Chaos: "outage=marquee/prod-eu@0s+1h"})
	procs := make([]*proc, 20)
	for i := range procs {
		procs[i] = w.machine(i).start("mq", "get", "prod-eu", "--max-retries", "0")
	}
	sent, fast := 0, 0
	for i, p := range procs {
		r := p.wait(t, 60*time.Second)
		switch r.code {
		case 12:
			sent++ // admitted while closed: its one request left
		case 9:
			fast++
		default:
			t.Fatalf("machine %d: %s", i, r)
		}
	}
	if n := requestsReceived(w.server.Stats(), ""); n != sent {
		t.Fatalf("the fleet sent %d requests, but only %d machines were admitted: a CIRCUIT_OPEN sent a packet", n, sent)
	}
	if sent < 5 {
		t.Fatalf("only %d failing requests, yet %d machines failed fast: the breaker opened before 5 failures", sent, fast)
	}
	before := requestsReceived(w.server.Stats(), "")
	if r := w.machine(20).run("mq", "get", "prod-eu", "--max-retries", "0"); r.code != 9 && !fellBack(r.stderr) {
		t.Fatalf("the machine after them: %s", r)
	} else if r.code == 9 && requestsReceived(w.server.Stats(), "") != before {
		t.Fatal("a CIRCUIT_OPEN sent a request")
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
	// Wait (bounded) until every process but the probes has failed fast
	// (or, on a loaded machine, given up on the store and gone alone); the
	// 2 probes hang for 25 s.
	deadline := time.Now().Add(22 * time.Second)
	for {
		fast, alone, probing := 0, 0, 0
		for i, p := range procs {
			_, errOut := p.output()
			select {
			case <-p.done:
				if p.code != 9 && !fellBack(errOut) {
					out, _ := p.output()
					t.Fatalf("process %d: exit %d, want 9 (CIRCUIT_OPEN)\n%s\n%s", i, p.code, out, errOut)
				}
				fast++
				continue
			default:
			}
			if fellBack(errOut) {
				alone++
			} else {
				probing++
			}
		}
		// Two probes; on a loaded machine a probe may itself give up on the
		// store after it was admitted (it then counts as alone), but never
		// more than two processes on the shared store are in flight.
		if probing <= 2 && probing+alone >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d failed fast, %d went alone, %d still probing: want 2 probes", fast, alone, probing)
		}
		time.Sleep(50 * time.Millisecond) // polling the processes' state
	}
}

// Ten machines that share the ledger take the slots of the window the
// fleet knows, then wait for the next one, and earn no 429.
func TestFleetLedgerEarnsNo429(t *testing.T) {
	t.Parallel()
	// The emulator's windows align on the Unix clock. The fleet learns a
	// window at its start, so ten processes started on a loaded machine all
	// run inside the window they know (a window none of them has seen is
	// nobody's to pace).
	const window = 6 * time.Second
	w, _ := fleetWorld(t, localapi.Config{RateLimit: 8, RateWindow: window})
	start := time.Now().Truncate(window).Add(window)
	time.Sleep(time.Until(start))                                 // the next window's start, at most 6 s away
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
		if fellBack(r.stderr) {
			// It ran on its own ledger, outside the fleet: the budget is
			// no longer shared, so a 429 proves nothing here.
			t.Skipf("machine %d gave up on the store (loaded machine): %s", i, r.stderr)
		}
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
	mustContain(t, "debug", r.stderr, "state store redis://****@")
	if strings.Contains(r.stderr, "fleet-pw-123") || strings.Contains(r.stdout, "fleet-pw-123") {
		t.Fatalf("the password shows:\n%s", r)
	}
	for _, args := range [][]string{{"config", "list"}, {"config", "list", "--json"}, {"config", "get", "state_store"},
		{"config", "set", "state_store", u.String(), "--json"}, {"config", "get", "state_store"}} {
		r = w.ok(args...)
		if strings.Contains(r.stdout+r.stderr, "fleet-pw-123") || !strings.Contains(r.stdout, "redis://****@") {
			t.Fatalf("fibe %s:\n%s", strings.Join(args, " "), r)
		}
	}
	if st, err := os.Stat(filepath.Join(w.home, "config", "fibe", "config.yaml")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config file holding the password: %v %v", st.Mode(), err)
	}
	srv.Stop()
	r = w.ok("mq", "get", "local")
	if n := strings.Count(r.stderr, "warning: state store"); n != 1 || strings.Contains(r.stderr, "fleet-pw-123") {
		t.Fatalf("want one warning without the password:\n%s", r.stderr)
	}
	mustContain(t, "warning", r.stderr, "using the file store")
}
