package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
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
		{[]string{"pg", "list"}, []string{"charlie-web", "bravo", "alpha"}}, // newest first
		{[]string{"pg", "list", "--playspec", "broken"}, []string{"bravo"}},
		{[]string{"pg", "list", "--playspec", "1"}, []string{"charlie-web", "alpha"}},
		{[]string{"pg", "list", "--marquee", "prod-eu", "--sort", "name_desc"}, []string{"charlie-web", "bravo"}},
		{[]string{"pg", "list", "--search", "WEB"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--name", "bravo"}, []string{"bravo"}},
		{[]string{"pg", "list", "--status", "stopped"}, []string{"alpha"}},
		{[]string{"pg", "list", "--created-after", "2000-01-01", "--created-before", "2000-01-02"}, []string{}},
		{[]string{"pg", "list", "--created-after", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}, []string{"charlie-web", "bravo", "alpha"}},
		{[]string{"pg", "list", "--playspec", "web", "--marquee", "prod-eu"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--playspec", "web", "--sort", "name_desc", "--per-page", "1"}, []string{"charlie-web"}},
		{[]string{"pg", "list", "--playspec", "web", "--sort", "name_desc", "--per-page", "1", "--page", "2"}, []string{"alpha"}},
		{[]string{"pg", "list", "--playspec", "web", "--per-page", "1", "--all"}, []string{"charlie-web", "alpha"}},
		{[]string{"mq", "list", "--search", "eu"}, []string{"prod-eu"}},
		{[]string{"mq", "list", "--status", "active", "--sort", "-name"}, []string{"unpaid", "prod-eu", "local"}},
		{[]string{"mq", "list", "--status", "disabled"}, []string{}},
		{[]string{"mq", "list", "--name", "local"}, []string{"local"}},
	} {
		if got := w.listNames(tc.args...); !slices.Equal(got, tc.want) {
			t.Errorf("fibe %s: %v, want %v", strings.Join(tc.args, " "), got, tc.want)
		}
	}

	// The old form of --sort is translated, with a warning.
	r := w.ok("mq", "list", "--sort", "-name")
	if !strings.Contains(r.stderr, "old form") || !strings.Contains(r.stderr, "name_desc") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("--sort -name: not one line of warning about the old form:\n%s", r.stderr)
	}
	r = w.ok("pg", "list", "--sort", "-name", "--json")
	var sorted []map[string]any
	if decodeOne(r.stdout, &sorted) != nil || len(sorted) != 3 || sorted[0]["name"] != "charlie-web" || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("pg list --sort -name --json:\n%s", r)
	}
	// A sort the server refuses (its column list may differ from ours) is
	// INVALID_SORT, exit 5.
	expectExit(t, w, 5, "INVALID_SORT", "api", "/api/marquees?sort=paid_until_asc")

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

// serve starts `fibe local serve` with args and returns its URL and key.
func serve(t *testing.T, args ...string) (string, string) {
	t.Helper()
	w := newUser(t)
	p := w.start(append([]string{"local", "serve", "--addr", "127.0.0.1:0", "--speed", "50"}, args...)...)
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(interrupt)
		p.wait(t, 10*time.Second)
	})
	exportRE := regexp.MustCompile(`export FIBE_API_URL=(\S+) FIBE_API_KEY=(\S+)`)
	p.waitFor(t, 10*time.Second, "the export line", func(stdout, _ string) bool { return exportRE.MatchString(stdout) })
	stdout, _ := p.output()
	m := exportRE.FindStringSubmatch(stdout)
	return m[1], m[2]
}

// call sends one request as any HTTP client would and decodes the JSON answer.
func call(t *testing.T, base, key, method, path, body string) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil && res.StatusCode != http.StatusNoContent {
		t.Fatalf("%s %s: %d, body not JSON: %v", method, path, res.StatusCode, err)
	}
	return res.StatusCode, out
}

// pollDone polls a status URL until success or error (bounded).
func pollDone(t *testing.T, base, key, statusURL string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		_, body := call(t, base, key, "GET", statusURL, "")
		if s := body["status"]; s == "success" || s == "error" {
			return body
		}
		time.Sleep(20 * time.Millisecond) // a poll interval, not a wait for a result
	}
	t.Fatalf("%s never finished", statusURL)
	return nil
}

// `fibe local serve` answers a client that is not fibe as the platform does.
func TestLocalServeAnswersAsThePlatform(t *testing.T) {
	t.Parallel()
	base, key := serve(t)

	for _, body := range []string{
		`{"playground":{"name":"one","playspec_id":"web","marquee_id":"local"}}`,
		`{"playground":{"name":"two","playspec_id":"broken","marquee_id":"prod-eu"}}`,
		`{"playground":{"name":"three","playspec_id":2,"marquee_id":"local"}}`,
	} {
		if code, pg := call(t, base, key, "POST", "/api/playgrounds", body); code != http.StatusCreated {
			t.Fatalf("create: %d %v", code, pg)
		}
	}
	names := func(path string) []string {
		code, body := call(t, base, key, "GET", path, "")
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, code, body)
		}
		out := []string{}
		for _, d := range body["data"].([]any) {
			out = append(out, d.(map[string]any)["name"].(string))
		}
		return out
	}
	if got := names("/api/playgrounds?playspec_id=2"); !slices.Equal(got, []string{"three", "two"}) {
		t.Errorf("playspec_id=2: %v", got)
	}
	if got := names("/api/playgrounds?playspec_id=broken&marquee_id=local&per_page=1"); !slices.Equal(got, []string{"three"}) {
		t.Errorf("combined filters: %v", got)
	}
	if got := names("/api/playgrounds?sort=name_desc&per_page=2&page=2"); !slices.Equal(got, []string{"one"}) {
		t.Errorf("sorted page 2: %v", got)
	}
	for _, q := range []string{"created_after=soon", "status=asleep", "marquee_id=nowhere"} {
		code, body := call(t, base, key, "GET", "/api/playgrounds?"+q, "")
		param, _, _ := strings.Cut(q, "=")
		if errObj, _ := body["error"].(map[string]any); code != 422 || errObj["code"] != "VALIDATION_FAILED" || !strings.Contains(fmt.Sprint(errObj["details"]), param) {
			t.Errorf("GET ?%s: %d %v", q, code, body)
		}
	}
	// An unknown sort is the platform's 400 INVALID_SORT, naming the valid ones.
	for _, q := range []string{"sort=size", "sort=-name", "sort=name_sideways"} {
		code, body := call(t, base, key, "GET", "/api/playgrounds?"+q, "")
		if errObj, _ := body["error"].(map[string]any); code != 400 || errObj["code"] != "INVALID_SORT" || !strings.Contains(fmt.Sprint(errObj["details"]), "name_desc") {
			t.Errorf("GET ?%s: %d %v", q, code, body)
		}
	}

	if got := names("/api/playspecs"); !slices.Equal(got, []string{"broken", "web"}) { // newest first, then the later id
		t.Errorf("playspecs: %v", got)
	}
	if code, ps := call(t, base, key, "GET", "/api/playspecs/broken", ""); code != 200 || ps["id"] != float64(2) {
		t.Errorf("playspec by name: %d %v", code, ps)
	}
	_, me := call(t, base, key, "GET", "/api/me", "")
	for _, f := range []string{"id", "username", "email", "avatar_url", "api_key_scopes"} {
		if _, ok := me[f]; !ok {
			t.Errorf("/api/me lacks %s: %v", f, me)
		}
	}
	code, ext := call(t, base, key, "POST", "/api/playgrounds/one/expiration", "")
	if code != 200 || len(ext) != 3 || ext["time_remaining"].(float64) < 47*3600 {
		t.Errorf("extend without a body: %d %v", code, ext)
	}
	code, mq := call(t, base, key, "PATCH", "/api/marquees/prod-eu", `{"marquee":{"status":"disabled","build_platform":"linux/arm64","dockerhub_auth_enabled":true,"dockerhub_username":"u","dockerhub_token":"dckr_pat_SECRET"}}`)
	if code != 200 || mq["status"] != "disabled" || mq["build_platform"] != "linux/arm64" || mq["billing_runtime_active"] != true || strings.Contains(fmt.Sprint(mq), "SECRET") {
		t.Errorf("marquee update: %d %v", code, mq)
	}
	if code, _ := call(t, base, key, "PATCH", "/api/marquees/prod-eu", `{"marquee":{"status":"paused"}}`); code != 422 {
		t.Errorf("status paused: %d", code)
	}
	_, unpaid := call(t, base, key, "GET", "/api/marquees/unpaid", "")
	if unpaid["billing_runtime_active"] != false || unpaid["status"] != "active" {
		t.Errorf("unpaid: %v", unpaid)
	}
	code, h := call(t, base, key, "POST", "/api/marquees/local/connection_tests", "")
	if code != 202 {
		t.Fatalf("connection test: %d %v", code, h)
	}
	done := pollDone(t, base, key, h["status_url"].(string))
	if res, _ := done["result"].(map[string]any); res["success"] != true {
		t.Errorf("connection test (default shape, under result): %v", done)
	}
	if code, body := call(t, base, key, "GET", "/api/props/1/commits", ""); code != 404 || body["error"].(map[string]any)["code"] != "RESOURCE_NOT_FOUND" {
		t.Errorf("unserved endpoint: %d %v", code, body)
	}
}

// With --legacy-async the result fields are at the top level, as older
// servers and the public Go SDK read them.
func TestLocalServeLegacyAsyncShape(t *testing.T) {
	t.Parallel()
	base, key := serve(t, "--legacy-async")
	code, h := call(t, base, key, "POST", "/api/marquees/local/connection_tests", "")
	if code != 202 {
		t.Fatalf("connection test: %d %v", code, h)
	}
	done := pollDone(t, base, key, h["status_url"].(string))
	if _, nested := done["result"]; nested || done["success"] != true || done["status"] != "success" {
		t.Errorf("legacy shape: %v", done)
	}
}
