package console

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// postForm posts a form of the logged-in client to the console and returns
// the status (redirects are not followed).
func (fx *fixture) postForm(path string, form url.Values) int {
	fx.t.Helper()
	form.Set("authenticity_token", fx.csrf)
	c := *fx.http
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.PostForm(fx.run.BaseURL()+path, form)
	if err != nil {
		fx.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (fx *fixture) expiresAt(ref string) time.Time {
	fx.t.Helper()
	_, pg := fx.api("GET", "/api/playgrounds/"+ref, nil)
	s, _ := pg["expires_at"].(string)
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		fx.t.Fatalf("expires_at %q: %v", s, err)
	}
	return at
}

// TestSettingsFormIsOneOperation: the same settings form submitted twice
// (one key) extends the expiry once; a new form (a new key) extends it
// again.
func TestSettingsFormIsOneOperation(t *testing.T) {
	fx := startConsole(t, quiet)
	id := fx.runningPlayground("ext")
	ref := fmt.Sprint(id)
	fx.login()
	before := fx.expiresAt(ref)
	s0 := fx.stats()
	form := func(key string) url.Values {
		return url.Values{"_method": {"patch"}, "idempotency_key": {key}, "env_overrides": {"A=1"}, "extend_hours": {"5"}}
	}
	const key = "0123456789abcdef0123456789abcdef"
	for i := 0; i < 2; i++ {
		if st := fx.postForm("/playgrounds/"+ref+"/settings", form(key)); st != http.StatusSeeOther {
			t.Fatalf("submit %d: status %d, want 303", i+1, st)
		}
	}
	if d := fx.expiresAt(ref).Sub(before); d != 5*time.Hour {
		t.Fatalf("one form submitted twice moved expires_at by %s, want 5h", d)
	}
	s1 := fx.stats()
	if d := s1.Mutations - s0.Mutations; d != 2 {
		t.Errorf("one form submitted twice executed %d mutations, want 2 (the PATCH and the extension, once each)", d)
	}
	if d := s1.Replays - s0.Replays; d != 2 {
		t.Errorf("the second submit gave %d replays, want 2", d)
	}
	if st := fx.postForm("/playgrounds/"+ref+"/settings", form("fedcba9876543210fedcba9876543210")); st != http.StatusSeeOther {
		t.Fatalf("a new form: status %d", st)
	}
	if d := fx.expiresAt(ref).Sub(before); d != 10*time.Hour {
		t.Fatalf("a second form moved expires_at to %s after the first, want 10h in all", d)
	}
}

// TestSettingsBadInputIsInvalidArgument: bad input in the form is refused
// with the contract's code and nothing is sent.
func TestSettingsBadInputIsInvalidArgument(t *testing.T) {
	fx := startConsole(t, quiet)
	id := fx.runningPlayground("bad-input")
	ref := fmt.Sprint(id)
	fx.login()
	s0 := fx.stats()
	for _, form := range []url.Values{
		{"_method": {"patch"}, "env_overrides": {"NOEQUALS"}},
		{"_method": {"patch"}, "extend_hours": {"-3"}},
	} {
		form.Set("authenticity_token", fx.csrf)
		resp, err := fx.http.PostForm(fx.run.BaseURL()+"/playgrounds/"+ref+"/settings", form)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), `data-code="INVALID_ARGUMENT"`) {
			t.Errorf("form %v: status %d, want 422 with INVALID_ARGUMENT", form, resp.StatusCode)
		}
	}
	if d := fx.stats().Mutations - s0.Mutations; d != 0 {
		t.Errorf("bad input sent %d mutations", d)
	}
}
