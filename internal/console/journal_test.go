package console

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// bound is how long a wait of these tests may take on a busy machine.
const bound = 60 * time.Second

// An action submitted through the console whose answer is lost is in the
// outcome journal, as the CLI's would be (docs/contract.md §10): flagged
// explicit, under the form's key. The same form submitted again finishes
// it (a replay) and settles the entry.
func TestConsoleActionWithALostAnswerIsJournaled(t *testing.T) {
	emu, err := localapi.New(localapi.Config{Seed: 1, Speed: 100})
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(emu.Handler())
	t.Cleanup(api.Close)
	c, err := client.New(client.Options{BaseURL: api.URL, APIKey: localapi.DefaultAPIKey, StateDir: t.TempDir(),
		Profile: "default", JournalWindow: 15 * time.Minute,
		Policy: reliability.Policy{MaxRetries: reliability.NoRetries, BreakerThreshold: 1000,
			PollInterval: 10 * time.Millisecond, PollTimeout: bound, AttemptTimeout: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if _, _, err := c.Playgrounds.Create(ctx, map[string]any{"name": "lost", "playspec_id": "web", "marquee_id": "local"}, client.MutationOptions{}, client.WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Playgrounds.Wait(ctx, "lost", "running", client.WaitOptions{}); err != nil {
		t.Fatal(err)
	}

	s, err := New(Config{Client: c, APILabel: "test"}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx) }()
	t.Cleanup(func() { s.Close(); <-served })

	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: bound,
		CheckRedirect: func(r *http.Request, via []*http.Request) error {
			if len(via) > 0 && r.URL.Query().Get("token") == "" && via[0].URL.Query().Get("token") == "" {
				return http.ErrUseLastResponse // a form's 303: not followed
			}
			return nil
		}}
	page := func(path string) string {
		t.Helper()
		resp, err := browser.Get(s.BaseURL() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	page("/?token=" + url.QueryEscape(s.token))
	html := page("/playgrounds/lost")
	csrf := regexp.MustCompile(`<meta name="csrf-token" content="([^"]+)"`).FindStringSubmatch(html)
	key := regexp.MustCompile(`data-action-form="rollout">\s*(?:<input[^>]*name="authenticity_token"[^>]*>)?<input type="hidden" name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(html)
	if csrf == nil || key == nil {
		t.Fatalf("no CSRF token or rollout form key in the page:\n%s", html)
	}
	submit := func() {
		t.Helper()
		resp, err := browser.PostForm(s.BaseURL()+"/playgrounds/lost/actions/rollout",
			url.Values{"authenticity_token": {csrf[1]}, "idempotency_key": {key[1]}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("submit: status %d, want 303", resp.StatusCode)
		}
	}
	ended := func(state string) {
		t.Helper()
		deadline := time.Now().Add(bound)
		for {
			s.ops.mu.Lock()
			op := s.ops.byKey[key[1]]
			got := ""
			if op != nil {
				got = op.State
			}
			s.ops.mu.Unlock()
			if got == state {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the rollout is %q after %s, want %s", got, bound, state)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	if err := emu.SetChaos("commit-then-502=1"); err != nil {
		t.Fatal(err)
	}
	submit()
	ended("failed")
	list, err := c.Journal().List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Key != key[1] || !list[0].Explicit || list[0].Label != "rollout lost" {
		t.Fatalf("journal after the lost rollout = %+v, want the form's key %s flagged explicit", list, key[1])
	}
	if n := emu.Stats().Mutations; n == 0 {
		t.Fatal("the rollout never reached the API")
	}

	if err := emu.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	before := emu.Stats()
	submit()
	ended("succeeded")
	after := emu.Stats()
	if d := after.Replays - before.Replays; d != 1 {
		t.Errorf("the form submitted again gave %d replays, want 1", d)
	}
	if d := after.Mutations - before.Mutations; d != 0 {
		t.Errorf("the form submitted again ran %d mutations, want 0", d)
	}
	if list, _ := c.Journal().List(); len(list) != 0 {
		t.Fatalf("journal after the replay = %+v", list)
	}
}
