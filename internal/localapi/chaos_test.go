package localapi

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestParseChaos(t *testing.T) {
	p, err := parseChaos("503=0.2,reset=0.05,commit-then-502=0.1,commit-then-hang=0.05:35s,latency=0.1:2s,outage=marquee/prod-eu@10s+30s")
	if err != nil {
		t.Fatal(err)
	}
	if p.rates["503"] != 0.2 || p.rates["reset"] != 0.05 || p.rates["commit-then-502"] != 0.1 ||
		p.rates["commit-then-hang"] != 0.05 || p.hangFor != 35*time.Second || p.latency != 0.1 || p.latencyFor != 2*time.Second {
		t.Fatalf("plan %+v", p)
	}
	if len(p.outages) != 1 || p.outages[0] != (outage{marquee: "prod-eu", start: 10 * time.Second, len: 30 * time.Second}) {
		t.Fatalf("outages %+v", p.outages)
	}
	c, err := parseChaos("cable-expire=once,cable-expire-burst=3,cable-drop=@5s,cable-reject=0.5,cable-noping=1")
	if err != nil {
		t.Fatal(err)
	}
	if c.cable != (cableFaults{ExpireOnce: true, ExpireBurst: 3, DropAfter: 5 * time.Second, RejectRate: 0.5, NoPing: true}) {
		t.Fatalf("cable %+v", c.cable)
	}
	for _, name := range []string{"flaky", "outage", "hostile", "off", " hostile ", "flaky,latency=0:1s"} {
		if _, err := parseChaos(name); err != nil {
			t.Fatalf("profile %q: %v", name, err)
		}
	}
	for _, bad := range []string{"503", "503=2", "503=-0.1", "latency=0.1:soon", "outage=prod-eu@1s+2s",
		"outage=marquee/x@1s", "outage=marquee/@1s+2s", "bogus=1", "503=0.6,500=0.6", "cable-drop=@x", "nope"} {
		if _, err := parseChaos(bad); err == nil {
			t.Fatalf("%q accepted", bad)
		}
	}
	if _, err := New(Config{Chaos: "bogus=1"}); err == nil {
		t.Fatal("New accepted a bad spec")
	}
}

// faultSequence records the statuses of n GETs under a spec and seed.
func faultSequence(t *testing.T, seed int64, spec string, n int) []int {
	e := newEnv(t, Config{Seed: seed, Chaos: spec})
	out := make([]int, n)
	for i := range out {
		out[i] = e.do("GET", "/api/me", nil).status
	}
	return out
}

func TestChaosIsSeeded(t *testing.T) {
	a := faultSequence(t, 7, "503=0.3,500=0.2", 60)
	b := faultSequence(t, 7, "503=0.3,500=0.2", 60)
	c := faultSequence(t, 8, "503=0.3,500=0.2", 60)
	counts := map[int]int{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different run at %d: %v vs %v", i, a, b)
		}
		counts[a[i]]++
	}
	if counts[503] < 5 || counts[500] < 3 || counts[200] < 10 {
		t.Fatalf("implausible mix %v", counts)
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Fatal("different seeds gave the same run")
	}
}

func TestInjectedErrorShapes(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		status int
		html   bool
	}{
		{"503=1", 503, false}, {"500=1", 500, false}, {"502=1", 502, true}, {"504=1", 504, true}, {"429=1", 429, false},
	} {
		e := newEnv(t, Config{Chaos: tc.spec})
		r := e.do("GET", "/api/playgrounds", nil)
		expectStatus(t, r, tc.status)
		if r.header.Get("X-Request-Id") == "" {
			t.Fatalf("%s: no request id", tc.spec)
		}
		if tc.html != strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: content type %q", tc.spec, r.header.Get("Content-Type"))
		}
		if !tc.html {
			r.errCode(t)
		}
		if tc.status == 429 && r.header.Get("Retry-After") == "" {
			t.Fatal("injected 429 without Retry-After")
		}
		if e.srv.Stats().Faults[tc.spec[:3]] != 1 {
			t.Fatalf("%s: faults %v", tc.spec, e.srv.Stats().Faults)
		}
		// /_local is never faulted, so chaos can always be turned off.
		expectStatus(t, e.do("GET", "/_local/stats", nil), http.StatusOK)
	}
}

func TestCommitThen502PerformsTheMutation(t *testing.T) {
	e := newEnv(t, Config{Chaos: "commit-then-502=1"})
	r := e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "ghost", "playspec_id": "web"}}, withIdem("k-ghost"))
	expectStatus(t, r, http.StatusBadGateway)
	if !strings.Contains(string(r.body), "<html>") {
		t.Fatalf("502 body %q", r.body)
	}
	// GETs are not mutations: they pass.
	expectStatus(t, e.do("GET", "/api/playgrounds/ghost", nil), http.StatusOK)
	st := e.srv.Stats()
	if st.Mutations != 1 || st.Creates["ghost"] != 1 || st.Faults["commit-then-502"] != 1 {
		t.Fatalf("stats %+v", st)
	}
	if st.Requests["POST /api/playgrounds"]["502"] != 1 {
		t.Fatalf("requests %v", st.Requests)
	}
	if err := e.srv.SetChaos("off"); err != nil {
		t.Fatal(err)
	}
	again := e.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "ghost", "playspec_id": "web"}}, withIdem("k-ghost"))
	expectStatus(t, again, http.StatusCreated)
	if again.header.Get("X-Idempotent-Replayed") != "true" || e.srv.Stats().Creates["ghost"] != 1 {
		t.Fatal("the retry was not a replay")
	}
}

func isReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "EOF")
}

func TestResetClosesTheConnection(t *testing.T) {
	e := newEnv(t, Config{Chaos: "reset=1"})
	_, err := e.try("GET", "/api/me", nil)
	if err == nil || !isReset(err) {
		t.Fatalf("want a reset, got %v", err)
	}
	if st := e.srv.Stats(); st.Faults["reset"] != 1 || st.Requests["GET /api/me"]["reset"] != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestCommitThenReset(t *testing.T) {
	e := newEnv(t, Config{Chaos: "commit-then-reset=1"})
	e.createPGRaw(t, "lost")
	if err := e.srv.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/lost", nil), http.StatusOK)
}

// createPGRaw creates a playground expecting the answer to be lost.
func (e *env) createPGRaw(t *testing.T, name string) {
	t.Helper()
	_, err := e.try("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}})
	if err == nil || !isReset(err) {
		t.Fatalf("want a reset, got %v", err)
	}
}

func TestOutageWindow(t *testing.T) {
	e := newEnv(t, Config{Chaos: "outage=marquee/prod-eu@10s+30s", Seed: 3})
	e.createPG("eu", "web", map[string]any{"marquee_id": "prod-eu"})
	e.createPG("home", "web", nil)
	r := e.do("POST", "/api/playgrounds/eu/operations", map[string]any{"action_type": "rollout"})
	opURL := r.json(t)["status_url"].(string)

	e.clock.Advance(10 * time.Second)
	about := []struct{ method, path string }{
		{"GET", "/api/playgrounds/eu"}, {"GET", "/api/marquees/prod-eu"}, {"GET", "/api/marquees/2"},
		{"GET", opURL}, {"POST", "/api/playgrounds/eu/status"},
	}
	failures := map[string]int{}
	for round := 0; round < 4; round++ {
		for _, a := range about {
			r, err := e.try(a.method, a.path, nil)
			switch {
			case err != nil && isReset(err):
				failures["reset"]++
			case err != nil:
				t.Fatalf("%s %s: %v", a.method, a.path, err)
			case r.status == http.StatusServiceUnavailable:
				failures["503"]++
			default:
				t.Fatalf("%s %s answered %d during the outage", a.method, a.path, r.status)
			}
		}
	}
	if failures["503"] == 0 || failures["reset"] == 0 {
		t.Fatalf("outage failures %v", failures)
	}
	create, err := e.try("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "eu2", "playspec_id": "web", "marquee_id": "prod-eu"}})
	if err == nil && create.status != http.StatusServiceUnavailable {
		t.Fatalf("create on the marquee: %d", create.status)
	}
	// Other marquees and lists are unaffected.
	expectStatus(t, e.do("GET", "/api/playgrounds/home", nil), http.StatusOK)
	expectStatus(t, e.do("GET", "/api/playgrounds", nil), http.StatusOK)

	e.clock.Advance(30 * time.Second)
	expectStatus(t, e.do("GET", "/api/playgrounds/eu", nil), http.StatusOK)
	if e.srv.Stats().Faults["outage"] < len(about)*4 {
		t.Fatalf("faults %v", e.srv.Stats().Faults)
	}
}

func TestLatency(t *testing.T) {
	e := newEnv(t, Config{Chaos: "latency=1:80ms"})
	start := time.Now()
	expectStatus(t, e.do("GET", "/api/me", nil), http.StatusOK)
	if el := time.Since(start); el < 80*time.Millisecond {
		t.Fatalf("answered in %v", el)
	}

	// With an hour of latency, /api waits past the client's patience while
	// /_local answers (within the client's 10 s timeout).
	slow := newEnv(t, Config{Chaos: "latency=1:1h"})
	expectStatus(t, slow.do("GET", "/_local/stats", nil), http.StatusOK)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", slow.hs.URL+"/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+slow.key)
	if _, err := slow.hc.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("delayed request ended with %v", err)
	}
	// The delayed request never reached the handler.
	if n := slow.srv.Stats().Requests["GET /api/me"]; len(n) != 0 {
		t.Fatalf("delayed request was handled: %v", n)
	}
}

func TestPanicBecomes500(t *testing.T) {
	e := newEnv(t, Config{Chaos: "panic=1"})
	r := e.do("GET", "/api/playgrounds", nil)
	expectStatus(t, r, http.StatusInternalServerError)
	if r.errCode(t) != "INTERNAL_ERROR" || r.header.Get("X-Request-Id") == "" {
		t.Fatalf("500 body %s", r.body)
	}
	if !strings.Contains(e.logs.joined(), "panic serving GET /api/playgrounds") {
		t.Fatalf("no log line; logs: %q", e.logs.joined())
	}
	// The server lives on.
	if err := e.srv.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds", nil), http.StatusOK)
}

func TestLocalChaosEndpoint(t *testing.T) {
	e := newEnv(t, Config{})
	r := e.do("POST", "/_local/chaos", map[string]any{"spec": "503=1"})
	expectStatus(t, r, http.StatusOK)
	if r.json(t)["spec"] != "503=1" {
		t.Fatalf("chaos answer %s", r.body)
	}
	expectStatus(t, e.do("GET", "/api/me", nil), http.StatusServiceUnavailable)
	expectStatus(t, e.do("POST", "/_local/chaos", map[string]any{"spec": "503=7"}), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/_local/chaos", map[string]any{"spec": 1}), http.StatusUnprocessableEntity)
	expectStatus(t, e.do("POST", "/_local/chaos", map[string]any{"spec": ""}), http.StatusOK)
	expectStatus(t, e.do("GET", "/api/me", nil), http.StatusOK)

	s := e.do("GET", "/_local/stats", nil)
	expectStatus(t, s, http.StatusOK)
	stats := s.json(t)
	req := stats["requests"].(map[string]any)["GET /api/me"].(map[string]any)
	if req["503"] != float64(1) || req["200"] != float64(1) {
		t.Fatalf("requests %v", stats["requests"])
	}
	for _, k := range []string{"mutations", "replays", "creates", "faults"} {
		if _, ok := stats[k]; !ok {
			t.Fatalf("stats lacks %s: %s", k, s.body)
		}
	}
}

func TestOutageWindowRestartsOnSetChaos(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("eu", "web", map[string]any{"marquee_id": "prod-eu"})
	e.clock.Advance(time.Hour)
	if err := e.srv.SetChaos("outage=marquee/prod-eu@1s+2s,reset=0"); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, e.do("GET", "/api/playgrounds/eu", nil), http.StatusOK)
	e.clock.Advance(1500 * time.Millisecond)
	if r, err := e.try("GET", "/api/playgrounds/eu", nil); err == nil && r.status != 503 {
		t.Fatalf("inside the window: %d", r.status)
	}
	e.clock.Advance(2 * time.Second)
	expectStatus(t, e.do("GET", "/api/playgrounds/eu", nil), http.StatusOK)
}

func TestCloseReleasesHangingRequests(t *testing.T) {
	e := newEnv(t, Config{Chaos: "commit-then-hang=1:1h"})
	done := make(chan error, 1)
	go func() {
		_, err := e.try("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "h", "playspec_id": "web"}})
		done <- err
	}()
	// Wait (bounded) until the mutation is committed, i.e. the request hangs.
	deadline := time.Now().Add(5 * time.Second)
	for e.srv.Stats().Faults["commit-then-hang"] == 0 {
		if time.Now().After(deadline) {
			t.Fatal("request never reached the hang")
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.srv.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a closed server answered the hung request")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not release the hanging request")
	}
}
