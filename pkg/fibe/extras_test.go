package fibe_test

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// Compose, env metadata and diagnostics of a running playground; a
// refreshed read is a 202 waited on, or its handle with NoWait, in both
// poll shapes.
func TestPlaygroundExtras(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		opts := []fibetest.Option{fibetest.WithSpeed(50)}
		if legacy {
			opts = append(opts, fibetest.WithLegacyAsync())
		}
		srv := server(t, opts...)
		c := srv.Client(quick)
		ctx := ctxT(t)
		if _, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "sdk-x", Playspec: "web", Env: map[string]string{"MODE": "x"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Playgrounds.Wait(ctx, "sdk-x", "running"); err != nil {
			t.Fatal(err)
		}
		cmp, _, err := c.Playgrounds.Compose(ctx, "sdk-x")
		if err != nil || !strings.Contains(cmp.ComposeYAML, "services:") || cmp.ComposeProject == "" {
			t.Fatalf("compose %+v, %v", cmp, err)
		}
		env, _, err := c.Playgrounds.EnvMetadata(ctx, "sdk-x")
		if err != nil || env.Merged["MODE"] != "x" || len(env.SystemKeys) == 0 || env.Metadata == nil {
			t.Fatalf("env %+v, %v", env, err)
		}
		report, _, err := c.Playgrounds.Debug(ctx, "sdk-x", &fibe.DebugOptions{Refresh: true, LogsTail: 3})
		if err != nil || report["refreshed"] != true || report["playground"].(map[string]any)["name"] != "sdk-x" {
			t.Fatalf("legacy %v: debug %v, %v", legacy, report, err)
		}
		report, resp, err := c.Playgrounds.Debug(ctx, "sdk-x", &fibe.DebugOptions{Refresh: true}, fibe.NoWait())
		if err != nil || report != nil || resp.Operation() == nil || resp.Operation().ID == "" {
			t.Fatalf("debug NoWait: %v %+v %v", report, resp, err)
		}
		if _, _, err := c.Playgrounds.Debug(ctx, "sdk-x", &fibe.DebugOptions{Mode: "verbose"}); !fibe.IsValidation(err) {
			t.Errorf("mode verbose: %v", err)
		}
		if _, _, err := c.Playgrounds.Compose(ctx, "nowhere"); !fibe.IsNotFound(err) {
			t.Errorf("compose of an unknown playground: %v", err)
		}
	}
}

func TestAutoconnectToken(t *testing.T) {
	srv := server(t)
	c := srv.Client(quick)
	ctx := ctxT(t)
	a, _, err := c.Marquees.AutoconnectToken(ctx, &fibe.AutoconnectTokenParams{Email: "ops@example.com"})
	if err != nil || len(a.Token) < 32 {
		t.Fatalf("token %+v, %v", a, err)
	}
	b, _, err := c.Marquees.AutoconnectToken(ctx, nil)
	if err != nil || b.Token == a.Token {
		t.Fatalf("second token %+v, %v", b, err)
	}
	// Bad input is refused before anything is sent.
	sent := requests(srv, "POST /api/autoconnect_tokens")
	for _, p := range []*fibe.AutoconnectTokenParams{
		{IP: "not-an-ip"}, {Email: "nope"}, {SSLMode: "sometimes"},
		{DNSCredentials: map[string]string{"token": "hunter2"}},
	} {
		_, _, err = c.Marquees.AutoconnectToken(ctx, p)
		if e := asError(t, err); e.Code != fibe.CodeInvalidArgument || strings.Contains(e.Error(), "hunter2") {
			t.Errorf("%+v: %v", p, err)
		}
	}
	wantRequests(t, srv, "POST /api/autoconnect_tokens", sent)
}
