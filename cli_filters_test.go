package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// listNames runs a list command with --json and returns the names, in order.
func (w *world) listNames(args ...string) []string {
	w.t.Helper()
	var items []struct {
		Name string `json:"name"`
	}
	w.jsonOf(&items, args...)
	out := []string{}
	for _, it := range items {
		out = append(out, it.Name)
	}
	return out
}

// The list filters reach the server and really filter, alone, together and
// across pages.
func TestListFilterFlags(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "alpha", "--playspec", "web", "--marquee", "local")
	w.ok("pg", "create", "--name", "bravo", "--playspec", "broken", "--marquee", "prod-eu")
	w.ok("pg", "create", "--name", "charlie-web", "--playspec", "web", "--marquee", "prod-eu")
	w.ok("pg", "stop", "alpha")

	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"pg", "list"}, []string{"alpha", "bravo", "charlie-web"}},
		{[]string{"pg", "list", "--playspec", "broken"}, []string{"bravo"}},
		{[]string{"pg", "list", "--playspec", "1"}, []string{"alpha", "charlie-web"}},
		{[]string{"pg", "list", "--marquee", "prod-eu", "--sort", "-name"}, []string{"charlie-web", "bravo"}},
		{[]string{"pg", "list", "--search", "WEB"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--name", "bravo"}, []string{"bravo"}},
		{[]string{"pg", "list", "--status", "stopped"}, []string{"alpha"}},
		{[]string{"pg", "list", "--created-after", "2000-01-01", "--created-before", "2000-01-02"}, []string{}},
		{[]string{"pg", "list", "--created-after", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}, []string{"alpha", "bravo", "charlie-web"}},
		{[]string{"pg", "list", "--playspec", "web", "--marquee", "prod-eu"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--playspec", "web", "--sort", "-name", "--per-page", "1"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--playspec", "web", "--sort", "-name", "--per-page", "1", "--page", "2"}, []string{"alpha"}},
		{[]string{"pg", "list", "--playspec", "web", "--per-page", "1", "--all"}, []string{"alpha", "charlie-web"}},
		{[]string{"mq", "list", "--search", "eu"}, []string{"prod-eu"}},
		{[]string{"mq", "list", "--status", "active", "--sort", "-name"}, []string{"unpaid", "prod-eu", "local"}},
		{[]string{"mq", "list", "--status", "disabled"}, []string{}},
		{[]string{"mq", "list", "--name", "local"}, []string{"local"}},
	} {
		if got := w.listNames(tc.args...); !slices.Equal(got, tc.want) {
			t.Errorf("fibe %s: %v, want %v", strings.Join(tc.args, " "), got, tc.want)
		}
	}

	// A playspec the server does not know is its 422, not an empty list.
	expectExit(t, w, 5, "VALIDATION_FAILED", "pg", "list", "--playspec", "nope")
}

// What can be checked locally is a usage error (exit 2) and sends nothing.
func TestListFilterFlagsRefuseBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	before := total(w.server.Stats())
	for _, args := range [][]string{
		{"pg", "list", "--created-after", "yesterday"},
		{"pg", "list", "--created-before", "2026-02-30"},
		{"pg", "list", "--sort", "size"},
		{"pg", "list", "--sort", "name,-bogus"},
		{"pg", "list", "--status", "sleeping"},
		{"mq", "list", "--status", "unfunded"},
		{"mq", "list", "--sort", "-paid_until"},
		{"mq", "list", "--created-after", "31/01/2026"},
	} {
		r := expectExit(t, w, 2, "", args...)
		flag := args[2]
		if !strings.Contains(r.stderr, flag) || strings.Contains(r.stderr, "goroutine") {
			t.Errorf("fibe %s: stderr does not name %s:\n%s", strings.Join(args, " "), flag, r.stderr)
		}
	}
	if after := total(w.server.Stats()); after != before {
		t.Errorf("bad filters sent %d requests", after-before)
	}
}

func TestAuthStatusShowsUserAndScopes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	r := w.ok("auth", "status")
	mustContain(t, "auth status", r.stdout, "local-dev <dev@fibe.local>", "Scopes:", "playgrounds:write", "marquees:read", "playspecs:read")
	var doc struct {
		User struct {
			Username string `json:"username"`
			Email    string `json:"email"`
		} `json:"user"`
		Scopes []string `json:"scopes"`
		Token  string   `json:"token"`
	}
	w.jsonOf(&doc, "auth", "status")
	if doc.User.Username != "local-dev" || !slices.Contains(doc.Scopes, "playgrounds:read") {
		t.Errorf("auth status --json: %+v", doc)
	}
	if strings.Contains(doc.Token, w.key) {
		t.Errorf("token not masked: %q", doc.Token)
	}
}

func TestExtendWithoutHours(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	var pg struct {
		ExpiresAt time.Time `json:"expires_at"`
	}
	w.jsonOf(&pg, "pg", "create", "--name", "ext", "--playspec", "web")
	var x struct {
		ID            int64     `json:"id"`
		ExpiresAt     time.Time `json:"expires_at"`
		TimeRemaining float64   `json:"time_remaining"`
	}
	w.jsonOf(&x, "pg", "extend", "ext")
	if got := x.ExpiresAt.Sub(pg.ExpiresAt); got != 24*time.Hour || x.ID == 0 || x.TimeRemaining < 47*3600 {
		t.Errorf("extend without --hours: moved by %v, answer %+v", got, x)
	}
	expectExit(t, w, 2, "", "pg", "extend", "ext", "--hours", "0")
}

func TestPlayspecCompletionAndKnownPlayspecs(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	r := w.ok("__complete", "pg", "create", "--playspec", "")
	mustContain(t, "--playspec values", r.stdout, "web\t", "broken\t")
	r = w.ok("__complete", "pg", "list", "--playspec", "br")
	if !strings.Contains(r.stdout, "broken") || strings.Contains(r.stdout, "web\t") {
		t.Errorf("pg list --playspec br completes:\n%s", r.stdout)
	}
	r = w.ok("__complete", "pg", "list", "--sort", "cr")
	mustContain(t, "--sort values", r.stdout, "created_at")

	r = expectExit(t, w, 5, "VALIDATION_FAILED", "pg", "create", "--name", "x", "--playspec", "nope")
	mustContain(t, "unknown playspec", r.stderr, "web, broken")
}
