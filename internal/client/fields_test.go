package client

import (
	"net/http"
	"slices"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// The client reads the fields the platform sends, against the emulator.
func TestClientReadsPlatformFields(t *testing.T) {
	_, url := emulator(t, localapi.Config{})
	c := emulatorClient(t, url)
	ctx := ctxT(t)

	me, _, err := c.Me(ctx)
	if err != nil || me.Username == "" || me.Email == "" || !slices.Contains(me.APIKeyScopes, "playgrounds:write") {
		t.Fatalf("me %+v (%v)", me, err)
	}

	specs, meta, err := c.Playspecs.List(ctx, ListOptions{})
	if err != nil || len(specs) != 2 || meta.Total != 2 || specs[0].Name != "broken" || specs[0].CreatedAt == nil {
		t.Fatalf("playspecs %+v %+v (%v)", specs, meta, err)
	}
	ps, _, err := c.Playspecs.Get(ctx, "broken")
	if err != nil || ps.ID != 2 || len(ps.Services) != 2 || !ps.Services[0].Public || ps.BaseComposeYAML == "" {
		t.Fatalf("playspec %+v (%v)", ps, err)
	}

	for _, p := range []struct{ name, spec, marquee string }{{"a-one", "web", "local"}, {"b-two", "broken", "prod-eu"}, {"c-web", "web", "prod-eu"}} {
		if _, _, err := c.Playgrounds.Create(ctx, map[string]any{"name": p.name, "playspec_id": p.spec, "marquee_id": p.marquee}, MutationOptions{}, WaitOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	names := func(o ListOptions) []string {
		t.Helper()
		items, err := c.Playgrounds.ListAll(ctx, o)
		if err != nil {
			t.Fatalf("list %+v: %v", o, err)
		}
		var out []string
		for _, p := range items {
			out = append(out, p.Name)
		}
		return out
	}
	if got := names(ListOptions{PlayspecID: "web", MarqueeID: "prod-eu"}); !slices.Equal(got, []string{"c-web"}) {
		t.Errorf("playspec and marquee: %v", got)
	}
	if got := names(ListOptions{Q: "-t", Sort: "name_desc", PerPage: 1}); !slices.Equal(got, []string{"b-two"}) {
		t.Errorf("q and sort over pages: %v", got)
	}
	if got := names(ListOptions{CreatedAfter: "2000-01-01", CreatedBefore: "2000-01-02"}); len(got) != 0 {
		t.Errorf("dates: %v", got)
	}
	_, _, err = c.Playgrounds.List(ctx, ListOptions{Sort: "size"})
	if e := mustError(t, err, CodeInvalidSort); e.Status != http.StatusBadRequest || ClassOf(e) != ClassInvalid {
		t.Errorf("bad sort: %+v", e)
	}

	pg, _, err := c.Playgrounds.Get(ctx, "a-one")
	if err != nil || pg.TimeRemaining == nil || *pg.TimeRemaining <= 0 || pg.Maintenance {
		t.Fatalf("playground %+v (%v)", pg, err)
	}
	x, _, err := c.Playgrounds.Extend(ctx, "a-one", 0, MutationOptions{})
	if err != nil || x.ID != pg.ID || x.ExpiresAt == nil || x.ExpiresAt.Sub(*pg.ExpiresAt).Hours() != 24 {
		t.Fatalf("extend without hours %+v (%v)", x, err)
	}

	mqs, err := c.Marquees.ListAll(ctx, ListOptions{Status: "active", Sort: "name_asc"})
	if err != nil || len(mqs) != 3 || mqs[2].Name != "unpaid" || mqs[2].BillingRuntimeActive == nil || *mqs[2].BillingRuntimeActive {
		t.Fatalf("marquees %+v (%v)", mqs, err)
	}
	ct, _, err := c.Marquees.TestConnection(ctx, "local", MutationOptions{}, WaitOptions{})
	if err != nil || !ct.OK || ct.Message == "" || ct.Error != "" {
		t.Fatalf("connection test %+v (%v)", ct, err)
	}
}

func TestConnectionTestReadsBothShapes(t *testing.T) {
	for body, want := range map[string]ConnectionTest{
		`{"success": true, "message": "ok", "error": null}`:                           {OK: true, Message: "ok"},
		`{"success": false, "message": "no", "error": "ssh: refused"}`:                {Message: "no", Error: "ssh: refused"},
		`{"success": false, "error": {"code": "SSH", "message": "host key changed"}}`: {Error: "host key changed"},
		`{"ok": true, "message": "older server"}`:                                     {OK: true, Message: "older server"},
	} {
		var got ConnectionTest
		if err := got.UnmarshalJSON([]byte(body)); err != nil || got != want {
			t.Errorf("%s: %+v (%v), want %+v", body, got, err, want)
		}
	}
}
