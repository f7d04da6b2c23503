package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// With a cold marquee cache every request is sent once per attempt: no
// lookup goes first to choose a breaker (docs/contract.md §6). Each scenario is
// counted on the server.
func TestColdCacheAttributionSendsNoLookup(t *testing.T) {
	pg := map[string]any{"id": 42, "name": "preview-42", "status": "running", "marquee_id": 2, "marquee_name": "prod-eu"}
	scenarios := []struct {
		name    string
		answers []func(t *testing.T, w http.ResponseWriter) // the last repeats
		sent    int
		code    string // "" → success
	}{
		{"200", []func(*testing.T, http.ResponseWriter){ok(pg)}, 1, ""},
		{"401", []func(*testing.T, http.ResponseWriter){fail(401, "UNAUTHORIZED")}, 1, CodeUnauthorized},
		{"404", []func(*testing.T, http.ResponseWriter){fail(404, "RESOURCE_NOT_FOUND")}, 1, CodeNotFound},
		{"429 then 200", []func(*testing.T, http.ResponseWriter){fail(429, "RATE_LIMITED"), ok(pg)}, 2, ""},
		{"reset then 200", []func(*testing.T, http.ResponseWriter){reset, ok(pg)}, 2, ""},
		{"503 every time", []func(*testing.T, http.ResponseWriter){fail(503, "INTERNAL_ERROR")}, 4, CodeInternal},
	}
	ops := map[string]func(c *Client) error{
		"get": func(c *Client) error { _, _, err := c.Playgrounds.Get(ctxT(t), "42"); return err },
		"rollout": func(c *Client) error {
			_, _, err := c.Playgrounds.Action(ctxT(t), "42", "rollout", false, MutationOptions{}, WaitOptions{})
			return err
		},
		"restart": func(c *Client) error {
			_, _, err := c.Playgrounds.Action(ctxT(t), "42", "hard_restart", false, MutationOptions{}, WaitOptions{})
			return err
		},
	}
	for opName, op := range ops {
		for _, sc := range scenarios {
			t.Run(opName+"/"+sc.name, func(t *testing.T) {
				var n atomic.Int32
				srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
					i := min(int(n.Add(1))-1, len(sc.answers)-1)
					sc.answers[i](t, w)
				})
				c, _ := newTestClient(t, srv.URL)
				err := op(c)
				if sc.code == "" && err != nil {
					t.Fatalf("want success, got %v", err)
				}
				if sc.code != "" {
					if e := mustError(t, err, sc.code); e.Resource != "playground/42" {
						t.Fatalf("resource %q, want playground/42", e.Resource)
					}
				}
				for _, r := range rec.all() {
					if r.Path != "/api/playgrounds/42" && r.Path != "/api/playgrounds/42/operations" {
						t.Fatalf("sent %s %s: a request only to choose a breaker", r.Method, r.Path)
					}
				}
				if got := rec.count(); got != sc.sent {
					t.Fatalf("%d requests, want %d", got, sc.sent)
				}
				if failuresOf(t, c, c.HostResource()) != 0 {
					t.Fatal("requests about a playground counted against the host breaker")
				}
				// The answer taught the marquee: the next request counts against it.
				if sc.code == "" && opName == "get" {
					if res := c.PlaygroundResource(context.Background(), "42"); res != "marquee/prod-eu" {
						t.Fatalf("after the answer, resource %q", res)
					}
				}
			})
		}
	}
}

func ok(v any) func(*testing.T, http.ResponseWriter) {
	return func(_ *testing.T, w http.ResponseWriter) { replyJSON(w, 200, v) }
}

func fail(status int, code string) func(*testing.T, http.ResponseWriter) {
	return func(_ *testing.T, w http.ResponseWriter) { apiError(w, status, code, "scripted", nil) }
}

func reset(t *testing.T, w http.ResponseWriter) { resetConn(t, w) }

// A 503 streak about a playground whose marquee is not known spends the
// retry budget (4 requests, INTERNAL_ERROR) and does not open a breaker.
func TestColdCache503StreakEndsUnavailableNotCircuitOpen(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) { apiError(w, 503, "INTERNAL_ERROR", "down", nil) })
	c, _ := newTestClient(t, srv.URL)
	_, _, err := c.Playgrounds.Get(ctxT(t), "preview-42")
	mustError(t, err, CodeInternal)
	if rec.count() != 4 {
		t.Fatalf("%d requests, want 4", rec.count())
	}
	if st, _ := c.Breakers(); len(st) != 1 || st[0].Resource != "playground/preview-42" || st[0].State != "closed" {
		t.Fatalf("breakers %+v", st)
	}
}

// A marquee given by id whose name is not known counts against
// marquee/<id>, with no marquee list sent first; the answer teaches the
// name, and a create naming the marquee by id then counts against it.
func TestMarqueeByIDIsAttributedWithoutTheMarqueeList(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/marquees/2":
			replyJSON(w, 200, map[string]any{"id": 2, "name": "prod-eu"})
		case r.Method == http.MethodPost && r.URL.Path == "/api/playgrounds":
			apiError(w, 503, "INTERNAL_ERROR", "down", nil)
		default:
			apiError(w, 404, "RESOURCE_NOT_FOUND", "no", nil)
		}
	})
	c, env := newTestClient(t, srv.URL)
	// Cold: a create with marquee_id 2 goes once per attempt, against marquee/2.
	_, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "x", "marquee_id": 2}, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeInternal); e.Resource != "marquee/2" {
		t.Fatalf("resource %q", e.Resource)
	}
	if m, _, err := c.Marquees.Get(ctxT(t), "2"); err != nil || m.Name != "prod-eu" {
		t.Fatalf("%+v %v", m, err)
	}
	for _, r := range rec.all() {
		if r.URL() == "/api/marquees" {
			t.Fatalf("sent the marquee list to choose a breaker")
		}
	}
	if got := len(env.events.kinds(EventAttempt)); got != rec.count() || rec.count() != 5 {
		t.Fatalf("%d requests, %d attempts; want 4 creates and 1 get", rec.count(), got)
	}
	before := rec.count()
	_, _, err = c.Playgrounds.Create(ctxT(t), map[string]any{"name": "x", "marquee_id": "2"}, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeInternal); e.Resource != "marquee/prod-eu" || rec.count() != before+4 {
		t.Fatalf("resource %q after %d requests", e.Resource, rec.count()-before)
	}
}

func (s seen) URL() string { return strings.SplitN(s.Path, "?", 2)[0] }

// A dead marquee, cold cache: the requests about its playground open only
// that playground's breaker; marquee B, the playground list and the host
// stay reachable, in this invocation and the next.
func TestDeadMarqueeColdCacheLeavesOthersAlone(t *testing.T) {
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		switch {
		case r.URL.Path == "/api/playgrounds":
			listOf(w, map[string]any{"id": 2, "name": "pg-b", "marquee_id": 20, "marquee_name": "B", "status": "running"})
		case r.URL.Path == "/api/me":
			replyJSON(w, 200, map[string]any{"id": 1})
		case strings.HasPrefix(r.URL.Path, "/api/playgrounds/pg-a"):
			apiError(w, 503, "INTERNAL_ERROR", "marquee A unreachable", nil)
		case strings.HasPrefix(r.URL.Path, "/api/playgrounds/pg-b"):
			replyJSON(w, 200, map[string]any{"id": 2, "name": "pg-b", "marquee_name": "B", "status": "running"})
		default:
			apiError(w, 404, "RESOURCE_NOT_FOUND", "no", nil)
		}
	})
	dir := t.TempDir()
	c, env := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir })
	_, _, err := c.Playgrounds.Status(ctxT(t), "pg-a") // 4 failures
	mustError(t, err, CodeInternal)
	_, _, err = c.Playgrounds.Extend(ctxT(t), "pg-a", 1, MutationOptions{}) // the 5th opens it
	if e := mustError(t, err, CodeCircuitOpen); e.Resource != "playground/pg-a" {
		t.Fatalf("resource %q", e.Resource)
	}
	if rec.count() != 5 {
		t.Fatalf("%d requests, want 5", rec.count())
	}
	if list, _, err := c.Playgrounds.List(ctxT(t), ListOptions{}); err != nil || len(list) != 1 {
		t.Fatalf("pg list silenced: %v", err)
	}
	if st, _, err := c.Playgrounds.Status(ctxT(t), "pg-b"); err != nil || st.Status != "running" {
		t.Fatalf("B silenced: %v", err)
	}
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatalf("host silenced by A: %v", err)
	}
	if n := failuresOf(t, c, c.HostResource()); n != 0 {
		t.Fatalf("host breaker counted %d failures", n)
	}
	// The next invocation is refused before its first packet.
	c2, _ := newTestClient(t, srv.URL, func(o *Options) { o.StateDir = dir; o.Clock = env.clock })
	before := rec.count()
	_, _, err = c2.Playgrounds.Action(ctxT(t), "pg-a", "rollout", false, MutationOptions{}, WaitOptions{})
	mustError(t, err, CodeCircuitOpen)
	if rec.count() != before {
		t.Fatalf("%d requests sent through an open breaker", rec.count()-before)
	}
}

// Against the emulator, counted on its side: with a cold cache a get is one
// request, and an outage of prod-eu opens only the breaker of the
// playground asked about; pg list, marquee local and the host stay up.
func TestEmulatorColdCacheOutage(t *testing.T) {
	s, err := localapi.New(localapi.Config{Speed: 100})
	if err != nil {
		t.Fatal(err)
	}
	// A fresh connection per request, so that net/http never re-sends one
	// (see the package doc) and the counts are exact.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		s.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	url := srv.URL
	setup := emulatorClient(t, url)
	for _, pg := range [][2]string{{"eu-1", "prod-eu"}, {"local-1", "local"}} {
		if _, _, err := setup.Playgrounds.Create(ctxT(t), map[string]any{"name": pg[0], "playspec_id": "web", "marquee_id": pg[1]}, MutationOptions{}, WaitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	c := emulatorClient(t, url, func(o *Options) { o.StateDir = t.TempDir() }) // cold cache
	before := s.Stats()
	if _, _, err := c.Playgrounds.Get(ctxT(t), "eu-1"); err != nil {
		t.Fatal(err)
	}
	after := s.Stats()
	if total(after)-total(before) != 1 || after.Requests["GET /api/playgrounds"]["200"] != before.Requests["GET /api/playgrounds"]["200"] {
		t.Fatalf("a cold get sent %d requests: %v", total(after)-total(before), after.Requests)
	}

	if err := s.SetChaos("outage=marquee/prod-eu@0s+1h"); err != nil {
		t.Fatal(err)
	}
	cold := emulatorClient(t, url, func(o *Options) { o.StateDir = t.TempDir() })
	before = s.Stats()
	_, _, err = cold.Playgrounds.Status(ctxT(t), "eu-1")
	if e, ok := AsError(err); !ok || (e.Code != CodeInternal && e.Code != CodeNetwork) {
		t.Fatalf("status during the outage: %v", err)
	}
	_, _, err = cold.Playgrounds.Action(ctxT(t), "eu-1", "rollout", false, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeCircuitOpen); e.Resource != "playground/eu-1" {
		t.Fatalf("%+v", e)
	}
	if n := total(s.Stats()) - total(before); n != 5 {
		t.Fatalf("%d requests about the dead marquee, want 5", n)
	}
	if _, _, err := cold.Playgrounds.List(ctxT(t), ListOptions{}); err != nil {
		t.Fatalf("pg list silenced: %v", err)
	}
	if _, _, err := cold.Playgrounds.Get(ctxT(t), "local-1"); err != nil {
		t.Fatalf("marquee local silenced: %v", err)
	}
	if n := failuresOf(t, cold, cold.HostResource()); n != 0 {
		t.Fatalf("the host breaker counted %d failures", n)
	}
}

func total(s localapi.Stats) int {
	n := 0
	for _, byStatus := range s.Requests {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}
