package fibe_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
)

// Secrets through the SDK: the value goes in once and comes back only
// from Reveal; a bad key or an oversized value is INVALID_ARGUMENT with
// nothing sent.
func TestSecretsService(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	const value = "sdk-s3cret 'quoted' \"value\""
	s, _, err := c.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "SDK_TOKEN", Value: value, Description: "for the SDK"})
	if err != nil || s.Key != "SDK_TOKEN" || s.Value != nil || s.ID == 0 {
		t.Fatalf("create: %+v (%v)", s, err)
	}
	got, _, err := c.Secrets.Get(ctx, "SDK_TOKEN")
	if err != nil || got.Value != nil || got.Description != "for the SDK" {
		t.Fatalf("get: %+v (%v)", got, err)
	}
	if got, _, err = c.Secrets.Reveal(ctx, "SDK_TOKEN"); err != nil || got.Value == nil || *got.Value != value {
		t.Fatalf("reveal: %+v (%v)", got, err)
	}
	if _, _, err = c.Secrets.Update(ctx, "SDK_TOKEN", &fibe.SecretUpdateParams{Value: "v2"}); err != nil {
		t.Fatal(err)
	}
	if got, _, _ = c.Secrets.Reveal(ctx, "SDK_TOKEN"); got == nil || *got.Value != "v2" {
		t.Fatalf("value after the update: %+v", got)
	}
	list, resp, err := c.Secrets.List(ctx, &fibe.SecretListOptions{Key: "sdk_"})
	if err != nil || len(list) != 1 || list[0].Value != nil || resp.Page().Total != 1 {
		t.Fatalf("list: %+v %+v (%v)", list, resp, err)
	}
	n := 0
	for s, err := range c.Secrets.All(ctx, &fibe.SecretListOptions{Key: "nothing-matches"}) {
		if err != nil {
			t.Fatal(err)
		}
		n += len(s.Key)
	}
	if n != 0 {
		t.Fatalf("All with an unmatched key filter yielded %d", n)
	}
	if _, err := c.Secrets.Delete(ctx, "SDK_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Secrets.Get(ctx, "SDK_TOKEN"); !fibe.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}

	before := srv.Stats()
	for _, tc := range []struct {
		field string
		call  func() error
	}{
		{"key", func() error {
			_, _, err := c.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "has space", Value: "v"})
			return err
		}},
		{"value", func() error {
			_, _, err := c.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "BIG", Value: strings.Repeat("x", 100_000)})
			return err
		}},
		{"value", func() error { _, _, err := c.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "NONE"}); return err }},
		{"scopes", func() error { _, _, err := c.APIKeys.Create(ctx, &fibe.APIKeyCreateParams{Label: "x"}); return err }},
		{"id", func() error { _, err := c.APIKeys.Delete(ctx, 0); return err }},
	} {
		err := tc.call()
		e, ok := errors.AsType[*fibe.Error](err)
		if !ok || e.Code != fibe.CodeInvalidArgument || e.Details["field"] != tc.field {
			t.Errorf("%s: %v, want INVALID_ARGUMENT naming it", tc.field, err)
		}
		if ok && strings.Contains(e.Message, "xxxxxxxxxx") {
			t.Errorf("%s: the value is quoted: %s", tc.field, e.Message)
		}
	}
	if after := srv.Stats(); !reflect.DeepEqual(before.Requests, after.Requests) {
		t.Fatalf("bad input sent something: %v → %v", before.Requests, after.Requests)
	}
}

// An API key's token comes back once; the key then works, and stops
// working once deleted. Status counts.
func TestAPIKeysAndStatus(t *testing.T) {
	srv := server(t)
	c := srv.Client()
	ctx := ctxT(t)
	k, _, err := c.APIKeys.Create(ctx, &fibe.APIKeyCreateParams{Label: "sdk", Scopes: []string{"secrets:read"}})
	if err != nil || !strings.HasPrefix(k.Token, "fibe_") || k.MaskedToken == "" {
		t.Fatalf("create: %+v (%v)", k, err)
	}
	keys, _, err := c.APIKeys.List(ctx, &fibe.APIKeyListOptions{Label: "sdk"})
	if err != nil || len(keys) != 1 || keys[0].Token != "" {
		t.Fatalf("list: %+v (%v)", keys, err)
	}
	reader := srv.Client(fibe.WithAPIKey(k.Token))
	if _, _, err := reader.Secrets.List(ctx, nil); err != nil {
		t.Fatalf("the new key: %v", err)
	}
	if _, _, err := reader.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "NOPE", Value: "v"}); asError(t, err).Code != fibe.CodeForbidden {
		t.Fatalf("a read key creating: %v", err)
	}
	if _, err := c.APIKeys.Delete(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reader.Secrets.List(ctx, nil); asError(t, err).Code != fibe.CodeUnauthorized {
		t.Fatalf("the deleted key: %v", err)
	}
	if _, _, err := c.Secrets.Create(ctx, &fibe.SecretCreateParams{Key: "COUNTED", Value: "v"}); err != nil {
		t.Fatal(err)
	}
	st, _, err := c.Status.Get(ctx)
	if err != nil || st.Secrets != 1 || st.Marquees == 0 || st.Subscription.Plan == "" || st.ResourceQuotas["playgrounds"].Limit == nil {
		t.Fatalf("status: %+v (%v)", st, err)
	}
}
