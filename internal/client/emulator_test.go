package client

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// emulator runs the local Fibe API emulator on 127.0.0.1.
func emulator(t *testing.T, cfg localapi.Config) (*localapi.Server, string) {
	t.Helper()
	if cfg.Speed == 0 {
		cfg.Speed = 100
	}
	s, err := localapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// emulatorClient runs on the real clock with short waits.
func emulatorClient(t *testing.T, url string, mod ...func(*Options)) *Client {
	t.Helper()
	opts := Options{BaseURL: url, APIKey: localapi.DefaultAPIKey, Policy: reliability.Policy{
		BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, PollInterval: 10 * time.Millisecond,
		PollTimeout: 20 * time.Second, AttemptTimeout: 5 * time.Second}}
	for _, m := range mod {
		m(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Under injected faults, including ones that commit and then fail the
// answer, every create happens exactly once: one key per operation.
func TestEmulatorChaosCreatesEachPlaygroundOnce(t *testing.T) {
	s, url := emulator(t, localapi.Config{Seed: 7, Chaos: "503=0.2,reset=0.15,commit-then-502=0.2,commit-then-reset=0.1"})
	c := emulatorClient(t, url, func(o *Options) { o.Policy.MaxRetries = 12; o.Policy.BreakerThreshold = 1000 })
	for i := 0; i < 6; i++ {
		name := fmt.Sprintf("chaos-%d", i)
		p, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": name, "playspec_id": "web", "marquee_id": "local"}, MutationOptions{}, WaitOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Name != name {
			t.Fatalf("created %+v", p)
		}
	}
	st := s.Stats()
	for i := 0; i < 6; i++ {
		if n := st.Creates[fmt.Sprintf("chaos-%d", i)]; n != 1 {
			t.Fatalf("chaos-%d created %d times (stats %+v)", i, n, st)
		}
	}
	if st.Faults["commit-then-502"]+st.Faults["commit-then-reset"] == 0 || st.Replays == 0 {
		t.Fatalf("the seed injected no commit-then-fail faults or no replays: %+v", st)
	}
}

func TestEmulatorBrokenRolloutIsATypedRemoteFailure(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "broken-1", "playspec_id": "broken", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Playgrounds.Action(ctxT(t), "broken-1", "rollout", false, MutationOptions{}, WaitOptions{})
	e, ok := AsError(err)
	if !ok || !e.Async || e.RequestID == "" || e.Resource != "marquee/local" {
		t.Fatalf("rollout of broken: %#v", err)
	}
	if !strings.Contains(fmt.Sprint(e.Details), "build") {
		t.Fatalf("details lack the failed step: %v", e.Details)
	}
	_, err = c.Playgrounds.Wait(ctxT(t), "broken-1", "running", WaitOptions{})
	e = mustError(t, err, CodeTerminalState)
	if e.Details["error_step"] != "build" {
		t.Fatalf("terminal details %v", e.Details)
	}
}

func TestEmulatorOutageSilencesOnlyThatMarquee(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url, func(o *Options) { o.StateDir = t.TempDir() })
	for _, pg := range [][2]string{{"eu-1", "prod-eu"}, {"local-1", "local"}} {
		if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": pg[0], "playspec_id": "web", "marquee_id": pg[1]}, MutationOptions{}, WaitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetChaos("outage=marquee/prod-eu@0s+1h"); err != nil {
		t.Fatal(err)
	}
	var err error
	for i := 0; i < 3 && !IsCircuitOpen(err); i++ {
		_, _, err = c.Playgrounds.Status(ctxT(t), "eu-1")
	}
	if e := mustError(t, err, CodeCircuitOpen); e.Resource != "marquee/prod-eu" {
		t.Fatalf("%+v", e)
	}
	if st, _, err := c.Playgrounds.Status(ctxT(t), "local-1"); err != nil || st.Name != "local-1" {
		t.Fatalf("local silenced by prod-eu: %v", err)
	}
	if _, _, err := c.Me(ctxT(t)); err != nil {
		t.Fatalf("host silenced by prod-eu: %v", err)
	}
	// A fresh invocation on the same state dir is silenced at once.
	c2 := emulatorClient(t, url, func(o *Options) { o.StateDir = c.store.(*reliability.FileStore).Dir })
	before := s.Stats().Faults["outage"]
	_, _, err = c2.Playgrounds.Action(ctxT(t), "eu-1", "rollout", false, MutationOptions{}, WaitOptions{})
	mustError(t, err, CodeCircuitOpen)
	if s.Stats().Faults["outage"] != before {
		t.Fatal("a request reached the dead marquee through an open breaker")
	}
}

func TestEmulatorStatusURLStylesAndAsyncShapes(t *testing.T) {
	for _, style := range []string{"", "alt", "absolute"} {
		for _, legacy := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/legacy=%v", style, legacy), func(t *testing.T) {
				_, url := emulator(t, localapi.Config{StatusURLStyle: style, LegacyAsync: legacy})
				c := emulatorClient(t, url)
				ct, meta, err := c.Marquees.TestConnection(ctxT(t), "local", MutationOptions{}, WaitOptions{})
				if err != nil || ct == nil || meta.Accepted == nil {
					t.Fatalf("%+v %+v %v", ct, meta, err)
				}
				lines, _, err := c.Playgrounds.Logs(ctxT(t), mustCreate(t, c, "logs-pg"), "", 3, MutationOptions{}, WaitOptions{})
				if err != nil || len(lines) == 0 {
					t.Fatalf("logs %v %v", lines, err)
				}
			})
		}
	}
}

func mustCreate(t *testing.T, c *Client, name string) string {
	t.Helper()
	if _, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": name, "playspec_id": "web", "marquee_id": "local"}, MutationOptions{}, WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Playgrounds.Wait(ctxT(t), name, "running", WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestEmulatorNotFundedIsTerminal(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	_, _, err := c.Playgrounds.Create(ctxT(t), map[string]any{"name": "poor", "playspec_id": "web", "marquee_id": "unpaid"}, MutationOptions{}, WaitOptions{})
	if e := mustError(t, err, CodeNotFunded); e.Status != 402 || e.Retryable || !hasCode(err, CodeNotFunded) {
		t.Fatalf("%+v", e)
	}
}

// The ledger waits for the emulator's window to refill instead of earning
// a 429; the emulator runs on the client's fake clock.
func TestEmulatorRateLimitIsWaitedOut(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Now())
	_, url := emulator(t, localapi.Config{RateLimit: 3, RateWindow: time.Minute, Now: clock.Now})
	c, _ := newTestClient(t, url, func(o *Options) { o.APIKey = localapi.DefaultAPIKey; o.Clock = clock; o.StateDir = t.TempDir() })
	for i := 0; i < 7; i++ {
		if _, meta, err := c.Me(ctxT(t)); err != nil {
			t.Fatalf("call %d: %v", i, err)
		} else if meta.RateLimit == nil {
			t.Fatal("no rate-limit headers")
		}
	}
	var waited time.Duration
	for _, d := range clock.Sleeps() {
		waited += d
	}
	if waited < time.Minute || waited > 3*time.Minute {
		t.Fatalf("waited %v in all for 7 calls at 3 per minute", waited)
	}
}
