package client

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// A template's body goes beside the wrapper, its first version comes with
// it, and the versions, the publication and the categories round-trip.
func TestTemplatesRoundTrip(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)
	cats, _, err := c.Templates.Categories(ctx, ListOptions{})
	if err != nil || len(cats) == 0 || cats[0].Name == "" || cats[0].Slug == "" {
		t.Fatalf("categories %+v, %v", cats, err)
	}
	tpl, _, err := c.Templates.Create(ctx, map[string]any{"name": "shop", "category_id": cats[0].ID,
		"template_body": "services:\n  web:\n    image: nginx:alpine\n"}, MutationOptions{}, WaitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Category != cats[0].Name || tpl.LatestVersion != 1 || len(tpl.Versions) != 1 || tpl.Versions[0].Public {
		t.Fatalf("created %+v", tpl)
	}
	v2, _, err := c.Templates.CreateVersion(ctx, "shop", map[string]any{"template_body": "services: {}\n", "changelog": "empty"}, MutationOptions{})
	if err != nil || v2.Version != 2 || v2.TemplateBody == "" || v2.Public {
		t.Fatalf("version %+v, %v", v2, err)
	}
	versions, meta, err := c.Templates.Versions(ctx, "shop", ListOptions{})
	if err != nil || meta.Total != 2 || versions[0].ID != v2.ID {
		t.Fatalf("versions %+v %+v, %v", versions, meta, err)
	}
	if _, err := c.Templates.DeleteVersion(ctx, "shop", v2.ID, MutationOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Templates.Version(ctx, "shop", v2.ID); !IsNotFound(err) {
		t.Fatalf("deleted version read back: %v", err)
	}
}

// SetPublic reads first: a version already in the state asked for is not
// sent at all (the emulator counts no mutation), and one that is not is
// toggled exactly once.
func TestTemplateSetPublicSendsNothingWhenItHolds(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)
	tpl, _, err := c.Templates.Create(ctx, map[string]any{"name": "pub", "template_body": "services: {}\n"}, MutationOptions{}, WaitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	before := s.Stats().Mutations
	v, changed, resp, err := c.Templates.SetPublic(ctx, "pub", 0, false, MutationOptions{})
	if err != nil || changed || resp != nil || v.Public {
		t.Fatalf("unpublish of a private version: %+v changed=%v resp=%v err=%v", v, changed, resp, err)
	}
	if n := s.Stats().Mutations; n != before {
		t.Fatalf("%d mutations sent for a version already private", n-before)
	}
	v, changed, _, err = c.Templates.SetPublic(ctx, "pub", tpl.LatestVersionID, true, MutationOptions{})
	if err != nil || !changed || !v.Public {
		t.Fatalf("publish: %+v changed=%v err=%v", v, changed, err)
	}
	if _, changed, _, err := c.Templates.SetPublic(ctx, "pub", 0, true, MutationOptions{}); err != nil || changed {
		t.Fatalf("publish again: changed=%v err=%v", changed, err)
	}
	if n := s.Stats().Mutations; n != before+1 {
		t.Fatalf("%d mutations, want exactly one toggle", n-before)
	}
}

// The publication route flips on every call. When its answer is lost
// after the flip (a proxy's 502 once the server committed), the retry
// carries the same Idempotency-Key and is replayed: the version ends
// public, not flipped back.
func TestTemplatePublicationLostAnswerIsNotFlippedTwice(t *testing.T) {
	s, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)
	tpl, _, err := c.Templates.Create(ctx, map[string]any{"name": "flip", "template_body": "services: {}\n"}, MutationOptions{}, WaitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	v, resp, err := c.Templates.TogglePublication(ctx, "flip", tpl.LatestVersionID, MutationOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Public || !resp.Replayed {
		t.Fatalf("after a lost answer: public=%v replayed=%v", v.Public, resp.Replayed)
	}
	if err := s.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	now, _, err := c.Templates.Version(ctx, "flip", tpl.LatestVersionID)
	if err != nil || !now.Public {
		t.Fatalf("the version is %+v (%v): the toggle was applied twice", now, err)
	}
	if st := s.Stats(); st.Faults["commit-then-502"] == 0 || st.Replays == 0 {
		t.Fatalf("no lost answer or no replay: %+v", st)
	}
}

// Some platform versions answer templates with Ruby's default time form;
// it reads as the same instant as RFC 3339.
func TestTemplateReadsRubyTimes(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id": 1, "name": "t", "created_at": "2026-04-30 13:05:15 UTC",
			"updated_at": "2026-04-30T14:00:00Z", "source": {"path": "a", "ref": "main", "last_refreshed_at": "2026-04-30 13:05:16 UTC"},
			"versions": [{"id": 2, "version": 1, "created_at": "2026-04-30 13:05:17 UTC"}]}`)
	}))
	t.Cleanup(srv.Close)
	c := emulatorClient(t, srv.URL)
	tpl, _, err := c.Templates.Get(ctxT(t), "t")
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 4, 30, 13, 5, 15, 0, time.UTC)
	if !tpl.CreatedAt.Equal(want) || !tpl.UpdatedAt.Equal(want.Add(55*time.Minute-15*time.Second)) ||
		!tpl.Source.LastRefreshedAt.Equal(want.Add(time.Second)) || !tpl.Versions[0].CreatedAt.Equal(want.Add(2*time.Second)) {
		t.Fatalf("times read as %v %v %v %v", tpl.CreatedAt, tpl.UpdatedAt, tpl.Source.LastRefreshedAt, tpl.Versions[0].CreatedAt)
	}
}
