package fibe_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

// Bad input is an *Error INVALID_ARGUMENT naming its field, returned
// before anything is sent; never a panic.
func TestBadInputSendsNothing(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	cases := []struct {
		name, field string
		call        func() error
	}{
		{"nil create params", "params", func() error { _, _, err := c.Playgrounds.Create(ctx, nil); return err }},
		{"no name", "name", func() error {
			_, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Playspec: "web"})
			return err
		}},
		{"nil update params", "params", func() error { _, _, err := c.Playgrounds.Update(ctx, "x", nil); return err }},
		{"empty ref", "ref", func() error { _, _, err := c.Playgrounds.Get(ctx, ""); return err }},
		{"empty ref rollout", "ref", func() error { _, _, err := c.Playgrounds.Rollout(ctx, ""); return err }},
		{"empty ref delete", "ref", func() error { _, err := c.Marquees.Delete(ctx, ""); return err }},
		{"empty operation", "id", func() error { _, _, err := c.Operations.Wait(ctx, ""); return err }},
		{"port out of range", "port", func() error {
			_, _, err := c.Marquees.Create(ctx, &fibe.MarqueeCreateParams{Name: "m", Host: "h", Port: 70000})
			return err
		}},
		{"negative hours", "hours", func() error { _, _, err := c.Playgrounds.Extend(ctx, "x", -1); return err }},
		{"negative wait", "wait_timeout", func() error {
			_, _, err := c.Playgrounds.Rollout(ctx, "x", fibe.WaitTimeout(-time.Second))
			return err
		}},
		{"empty key", "idempotency_key", func() error {
			_, err := c.Playgrounds.Delete(fibe.WithIdempotencyKey(ctx, ""), "x")
			return err
		}},
		{"negative page", "page", func() error {
			_, _, err := c.Playspecs.List(ctx, &fibe.ListOptions{Page: -1})
			return err
		}},
		{"compose not YAML", "compose", func() error {
			_, _, err := c.Playspecs.Create(ctx, &fibe.PlayspecCreateParams{Name: "p", BaseComposeYAML: "a: b: c"})
			return err
		}},
		{"playspec without compose", "compose", func() error {
			_, _, err := c.Playspecs.Create(ctx, &fibe.PlayspecCreateParams{Name: "p"})
			return err
		}},
		{"validate not YAML", "compose_yaml", func() error {
			_, _, err := c.Playspecs.ValidateCompose(ctx, fibe.ComposeCheck{YAML: "services: [\n"})
			return err
		}},
		{"follow empty ref", "ref", func() error {
			for _, err := range c.Playgrounds.FollowLogs(ctx, "", nil) {
				return err
			}
			return nil
		}},
	}
	before := srv.Stats()
	for _, tc := range cases {
		err := tc.call()
		e, ok := errors.AsType[*fibe.Error](err)
		if !ok || e.Code != fibe.CodeInvalidArgument || e.Details["field"] != tc.field || !fibe.IsValidation(err) {
			t.Errorf("%s: %v (%+v), want INVALID_ARGUMENT naming %s", tc.name, err, e, tc.field)
		}
		if ok && strings.Contains(e.Message, "\n") {
			t.Errorf("%s: message of more than one line: %q", tc.name, e.Message)
		}
	}
	if after := srv.Stats(); !reflect.DeepEqual(before, after) {
		t.Fatalf("bad input sent something: %v → %v", before.Requests, after.Requests)
	}
}

func TestNewClientRefusesOptionsThatCannotWork(t *testing.T) {
	cases := []struct {
		field string
		opt   fibe.Option
	}{
		{"base_url", fibe.WithBaseURL("fibe.gg")},
		{"base_url", fibe.WithBaseURL("ftp://fibe.gg")},
		{"api_key", fibe.WithAPIKey("line\nbreak")},
		{"user_agent", fibe.WithUserAgent("bot\r\nX-Evil: 1")},
		{"journal_window", fibe.WithJournalWindow(-time.Minute)},
		{"state_dir", fibe.WithStateDir(" ")},
		{"state_store", fibe.WithStateStore("http://redis")},
		{"policy.max_retries", fibe.WithPolicy(fibe.Policy{MaxRetries: -2})},
		{"policy.base_delay", fibe.WithPolicy(fibe.Policy{BaseDelay: -1})},
	}
	for _, tc := range cases {
		c, err := fibe.NewClient(tc.opt)
		e, ok := errors.AsType[*fibe.Error](err)
		if c != nil || !ok || e.Code != fibe.CodeInvalidArgument || e.Details["field"] != tc.field {
			t.Errorf("%s: client %v, error %v", tc.field, c != nil, err)
		}
		if ok && strings.Contains(e.Error(), "line\nbreak") {
			t.Errorf("the API key is quoted: %q", e.Error())
		}
	}
}

// After Close every call is CANCELLED and sends nothing; Close is
// idempotent.
func TestClosedClient(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	_, _, err := c.Me.Get(context.Background())
	if !fibe.IsCancelled(err) {
		t.Fatalf("call after Close: %v", err)
	}
	if _, err := c.Breakers(); !fibe.IsCancelled(err) {
		t.Fatalf("Breakers after Close: %v", err)
	}
	if n := len(srv.Stats().Requests); n != 0 {
		t.Fatalf("%d routes requested after Close", n)
	}
}

// Params go on the wire under their API names; Extra merges in and the
// named fields win; zero fields are not sent.
func TestParamsBody(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	pg, _, err := c.Playgrounds.Create(ctx, &fibe.PlaygroundCreateParams{Name: "p1", Playspec: "web", Marquee: "prod-eu",
		Env: map[string]string{"A": "1"}, Extra: map[string]any{"name": "ignored", "marquee_id": "local"}})
	if err != nil {
		t.Fatal(err)
	}
	if pg.Name != "p1" || pg.MarqueeName != "prod-eu" || pg.PlayspecName != "web" {
		t.Fatalf("created %+v", pg)
	}
	pg, _, err = c.Playgrounds.Update(ctx, "p1", &fibe.PlaygroundUpdateParams{Name: "p1b"})
	if err != nil || pg.Name != "p1b" {
		t.Fatalf("update: %+v, %v", pg, err)
	}
	m, _, err := c.Marquees.Create(ctx, &fibe.MarqueeCreateParams{Name: "m1", Host: "10.0.0.9", Port: 2222, User: "deploy",
		SSHPrivateKey: "-----BEGIN KEY-----"})
	if err != nil || m.Name != "m1" || m.Port != 2222 || m.User != "deploy" {
		t.Fatalf("marquee %+v, %v", m, err)
	}
	list, resp, err := c.Playspecs.List(ctx, &fibe.ListOptions{PerPage: 1})
	if err != nil || len(list) != 1 || resp.Page().Total < 2 {
		t.Fatalf("playspecs %v, %+v, %v", list, resp.Page(), err)
	}
	n := 0
	for ps, err := range c.Playspecs.All(ctx, &fibe.ListOptions{PerPage: 1}) {
		if err != nil || ps.Name == "" {
			t.Fatal(err)
		}
		n++
	}
	if n != resp.Page().Total {
		t.Fatalf("All gave %d playspecs of %d", n, resp.Page().Total)
	}
}

// A nil Response answers its methods with zeros.
func TestNilResponse(t *testing.T) {
	var r *fibe.Response
	if r.StatusCode() != 0 || r.RequestID() != "" || r.Replayed() || r.IdempotencyKey() != "" || r.Operation() != nil ||
		r.Page() != (fibe.ListMeta{}) {
		t.Fatal("a nil Response is not all zeros")
	}
	if _, ok := r.RateLimit(); ok {
		t.Fatal("a nil Response has a rate limit")
	}
	if !strings.HasPrefix(fibetest.DefaultAPIKey, "fibe_local_") {
		t.Fatal(fibetest.DefaultAPIKey)
	}
}
