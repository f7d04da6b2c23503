package fibe_test

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// The debug trace shows the attempts and never the API key or a secret
// field of a body.
func TestDebugTraceRedacts(t *testing.T) {
	srv := server(t)
	var trace bytes.Buffer
	c := srv.Client(fibe.WithDebug(&trace))
	_, _, err := c.Marquees.Create(ctxT(t), &fibe.MarqueeCreateParams{Name: "m9", Host: "10.1.2.3",
		SSHPrivateKey: "-----BEGIN SECRET KEY-----"})
	if err != nil {
		t.Fatal(err)
	}
	out := trace.String()
	if !strings.Contains(out, "POST") || !strings.Contains(out, "/api/marquees") {
		t.Fatalf("trace shows no attempt:\n%s", out)
	}
	for _, secret := range []string{srv.APIKey, "BEGIN SECRET KEY"} {
		if strings.Contains(out, secret) {
			t.Fatalf("trace shows %q:\n%s", secret, out)
		}
	}
}

// The User-Agent names the program, then the SDK and the platform.
func TestUserAgent(t *testing.T) {
	var (
		mu sync.Mutex
		ua string
	)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ua = r.Header.Get("User-Agent")
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":1,"email":"a@b.c","avatar_url":null,"api_key_scopes":[]}`))
	}))
	defer hs.Close()
	c, err := fibe.NewClient(fibe.WithBaseURL(hs.URL), fibe.WithUserAgent("release-bot/2.1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Me.Get(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !regexp.MustCompile(`^release-bot/2\.1 fibe-go/[0-9][^ ]* \([a-z0-9]+/[a-z0-9]+\)$`).MatchString(ua) {
		t.Fatalf("User-Agent %q", ua)
	}
}

// Two clients on one state directory share their breakers, as two
// processes (or the SDK and the CLI) do.
func TestStateDirSharesBreakers(t *testing.T) {
	srv := server(t, fibetest.WithChaos("outage=marquee/prod-eu@0s+1h"))
	dir := t.TempDir()
	policy := fibe.WithPolicy(fibe.Policy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, BreakerThreshold: 2,
		MaxRetries: fibe.NoRetries})
	a, b := srv.Client(policy, fibe.WithStateDir(dir)), srv.Client(policy, fibe.WithStateDir(dir))
	ctx := ctxT(t)
	for range 2 {
		if _, _, err := a.Marquees.Get(ctx, "prod-eu"); !fibe.IsUnavailable(err) {
			t.Fatalf("a: %v", err)
		}
	}
	sent := sum(requests(srv, "GET /api/marquees/{id}"))
	_, _, err := b.Marquees.Get(ctx, "prod-eu")
	if e := asError(t, err); !fibe.IsCircuitOpen(err) || e.Resource != "marquee/prod-eu" {
		t.Fatalf("b: %v", err)
	}
	if now := sum(requests(srv, "GET /api/marquees/{id}")); now != sent {
		t.Fatalf("b sent %d requests past the open breaker", now-sent)
	}
	list, err := b.Breakers()
	if err != nil || len(list) != 1 || list[0].State != "open" || list[0].OpenUntil.IsZero() {
		t.Fatalf("b's breakers %+v, %v", list, err)
	}
	if err := b.ResetBreaker(""); err != nil {
		t.Fatal(err)
	}
	if list, _ := a.Breakers(); len(list) != 0 && list[0].State == "open" {
		t.Fatalf("a still sees %+v", list)
	}
}

// A failure without an answer unwraps to the network's error, never to an
// internal type.
func TestUnwrapIsTheNetworkCause(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := fibe.NewClient(fibe.WithBaseURL("http://"+addr), fibe.WithPolicy(fibe.Policy{MaxRetries: fibe.NoRetries}))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Me.Get(ctxT(t))
	var op *net.OpError
	if e := asError(t, err); !fibe.IsUnavailable(err) || e.Status != 0 || !errors.As(err, &op) {
		t.Fatalf("%v (cause %T)", err, errors.Unwrap(err))
	}
}

// An operation that failed shows its error when looked at.
func TestOperationGetShowsItsError(t *testing.T) {
	srv := server(t, fibetest.WithSpeed(10))
	c := srv.Client(quick)
	ctx := ctxT(t)
	if _, _, err := c.Playgrounds.Create(ctx, pgp("f1", "broken", "local")); err != nil {
		t.Fatal(err)
	}
	_, resp, err := c.Playgrounds.Rollout(ctx, "f1", fibe.NoWait())
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Operation().ID
	_, _, err = c.Operations.Wait(ctx, id)
	if e := asError(t, err); e.Code != fibe.CodePlaygroundBuildFailed || !e.Async || e.OperationID != id {
		t.Fatalf("wait: %+v", e)
	}
	op, _, err := c.Operations.Get(ctx, id)
	if err != nil || op.Status != "error" || op.Err == nil || op.Err.Code != fibe.CodePlaygroundBuildFailed {
		t.Fatalf("get: %+v, %v", op, err)
	}
	if err := op.Decode(&struct{}{}); !errors.Is(err, &fibe.Error{Code: fibe.CodeInvalidResponse}) {
		t.Fatalf("decoding a failed operation: %v", err)
	}
}

// NewClient reads no environment: a key in FIBE_API_KEY is not sent, and
// the server answers 401.
func TestNewClientReadsNoEnvironment(t *testing.T) {
	srv := server(t)
	t.Setenv("FIBE_API_KEY", srv.APIKey)
	t.Setenv("FIBE_API_URL", "http://127.0.0.1:1")
	t.Setenv("HOME", t.TempDir())
	c, err := fibe.NewClient(fibe.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Me.Get(ctxT(t))
	if e := asError(t, err); !fibe.IsAuth(err) || e.Status != 401 || e.Details == nil {
		t.Fatalf("%+v", e)
	}
}
