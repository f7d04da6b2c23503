package e2e

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The hostile-server suite: a fake API that answers what a broken or
// malicious server could (implausible rate-limit headers, escape sequences
// in every string field, truncated and null bodies, redirects elsewhere,
// lost answers), driven through the built binary and the MCP server. Each
// case asserts the exit code, what reached stdout, and that no later
// command is slowed.

// esc is a string field as a hostile server fills it: clear the screen,
// set the title, write the clipboard, a bell, a carriage return, a
// right-to-left override.
const esc = "x\x1b[2J\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\r\u202e"

// hostile is the fake API and what it saw.
type hostile struct {
	*httptest.Server
	other *httptest.Server // another origin, for redirects

	mu        sync.Mutex
	hits      map[string]int // "METHOD /path" → requests
	ledger    string         // the rate-limit headers the next answer carries
	otherAuth []string       // Authorization headers the other origin received
}

func newHostile(t *testing.T) *hostile {
	t.Helper()
	h := &hostile{hits: map[string]int{}}
	h.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		h.otherAuth = append(h.otherAuth, r.Header.Get("Authorization"))
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"stolen": false}`))
	}))
	t.Cleanup(h.other.Close)
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.Server.Close)
	return h
}

func (h *hostile) count(key string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[key]
}

func (h *hostile) total() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, v := range h.hits {
		n += v
	}
	return n
}

// setLedger makes the next answer carry remaining and reset (Unix seconds).
func (h *hostile) setLedger(remaining int, reset int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ledger = strconv.Itoa(remaining) + " " + strconv.FormatInt(reset, 10)
}

func (h *hostile) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.hits[r.Method+" "+r.URL.Path]++
	ledger := h.ledger
	h.ledger = ""
	h.mu.Unlock()
	if rem, reset, ok := strings.Cut(ledger, " "); ok {
		w.Header().Set("X-RateLimit-Limit", "100")
		w.Header().Set("X-RateLimit-Remaining", rem)
		w.Header().Set("X-RateLimit-Reset", reset)
	}
	// (A header value with control characters is refused by the HTTP
	// parser itself: only bodies carry them.)
	w.Header().Set("X-Request-Id", "req_hostile")
	jsonBody := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	switch r.Method + " " + r.URL.Path {
	case "GET /api/me":
		jsonBody(200, map[string]any{"id": 1, "username": "u" + esc, "email": "e" + esc, "api_key_scopes": []string{esc}})
	case "GET /api/playgrounds/evil":
		jsonBody(200, evilPlayground())
	case "GET /api/playgrounds":
		jsonBody(200, map[string]any{"data": []any{evilPlayground()}, "meta": map[string]any{"page": 1, "per_page": 25, "total": 1}})
	case "GET /api/marquees/evil":
		jsonBody(200, evilMarquee())
	case "GET /api/marquees":
		jsonBody(200, map[string]any{"data": []any{evilMarquee()}, "meta": map[string]any{"page": 1, "per_page": 25, "total": 1}})
	case "GET /api/playgrounds/nullpg":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("null"))
	case "GET /api/playgrounds/bad":
		jsonBody(422, map[string]any{"error": map[string]any{"code": "VALIDATION_FAILED", "message": "m" + esc,
			"details": map[string]any{"name": []string{"is" + esc}, "step" + esc: esc}}})
	case "GET /api/truncated":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"data": [{"id": 1, "name": "cut`))
	case "GET /api/text":
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("hello " + esc))
	case "GET /api/playgrounds/evil/env_metadata":
		jsonBody(200, map[string]any{"merged": map[string]any{"K" + esc: "v" + esc}, "metadata": map[string]any{}, "system_keys": []string{"K" + esc}})
	case "GET /api/playgrounds/evil/compose":
		jsonBody(200, map[string]any{"compose_yaml": "services:\n  web" + esc + ":\n    image: x\n", "compose_project": "p" + esc})
	case "GET /api/playgrounds/evil/debug":
		jsonBody(200, map[string]any{"playground": map[string]any{"id": 7, "name": "pg" + esc, "status": esc},
			"startup": map[string]any{"state": esc, "missing_artifacts": []string{esc}, "log_tail": []string{"tail " + esc}}})
	case "POST /api/playgrounds/evil/logs":
		jsonBody(200, map[string]any{"lines": []string{"\x1b[31mred\x1b[0m\tok", "log " + esc}})
	case "GET /api/redirect":
		http.Redirect(w, r, h.other.URL+"/steal", http.StatusFound)
	case "GET /api/loop":
		http.Redirect(w, r, "/api/loop", http.StatusFound)
	default:
		if r.Method == http.MethodPost {
			// Every mutation's answer is lost: the outcome is unknown.
			jsonBody(502, map[string]any{"error": map[string]any{"code": "INTERNAL_ERROR", "message": "bad gateway"}})
			return
		}
		jsonBody(404, map[string]any{"error": map[string]any{"code": "RESOURCE_NOT_FOUND", "message": "no " + esc}})
	}
}

func evilMarquee() map[string]any {
	return map[string]any{"id": 3, "name": "m" + esc, "host": "h" + esc, "port": 22, "user": "u" + esc, "status": esc}
}

func evilPlayground() map[string]any {
	return map[string]any{"id": 7, "name": "pg" + esc, "status": esc, "marquee_name": "m" + esc, "playspec_name": "s" + esc,
		"state_reason": esc, "state_reasons": []string{esc, "r" + esc}, "error_message": esc,
		"service_urls":   []any{map[string]any{"name": esc, "url": "https://x/" + esc}},
		"services":       []any{map[string]any{"name": esc, "status": esc, "health": "h" + esc}},
		"build_statuses": []any{map[string]any{"service": esc, "status": esc, "error": esc}}}
}

func (h *hostile) world(t *testing.T) *world {
	t.Helper()
	w := newUser(t)
	w.env["FIBE_API_URL"] = h.URL
	w.env["FIBE_API_KEY"] = "fibe_hostile_0123456789abcdef"
	w.env["FIBE_MAX_RETRIES"] = "0"
	return w
}

// noControl fails when s holds a raw control character other than a
// newline (the escape sequences must arrive escaped, as text).
func noControl(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e) {
			t.Fatalf("%s holds a raw control character %U:\n%q", what, r, s)
		}
	}
}

// timed runs fibe and fails when it took longer than limit: a command
// parked by a bogus rate window waits 2 minutes.
func timed(t *testing.T, w *world, limit time.Duration, args ...string) result {
	t.Helper()
	start := time.Now()
	r := w.run(args...)
	if took := time.Since(start); took > limit {
		t.Fatalf("fibe %s took %s (limit %s): a later command was slowed\n%s", strings.Join(args, " "), took, limit, r)
	}
	return r
}

func TestHostileRateLimitHeadersNeverStallLaterCommands(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	// Year 5138: stored by the old client, every later command waited its
	// 2-minute ceiling, forever.
	h.setLedger(0, 99999999999)
	w.ok("api", "me")
	h.setLedger(0, time.Now().Add(-time.Hour).Unix()) // a Reset in the past
	w.ok("api", "me")
	for range 2 {
		if r := timed(t, w, 20*time.Second, "api", "me"); r.code != 0 {
			t.Fatalf("%s", r)
		}
	}
	// A plausible spent window (an hour ahead) is honoured, and `fibe
	// breaker reset` forgets it: the next command does not wait.
	h.setLedger(0, time.Now().Add(time.Hour).Unix())
	w.ok("api", "me")
	r := w.ok("breaker", "reset")
	mustContain(t, "reset notice", r.stderr, "rate-limit ledger")
	timed(t, w, 20*time.Second, "api", "me")
}

func TestHostileEscapeSequencesAreShownEscaped(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	for _, args := range [][]string{{"pg", "get", "evil"}, {"pg", "list"}, {"mq", "get", "evil"}, {"mq", "list"}, {"auth", "status"}} {
		r := w.run(args...)
		if r.code != 0 {
			t.Fatalf("fibe %s: %s", strings.Join(args, " "), r)
		}
		noControl(t, strings.Join(args, " ")+" stdout", r.stdout)
		noControl(t, strings.Join(args, " ")+" stderr", r.stderr)
	}
	// fibe doctor quotes the server in its details (the user, errors),
	// whichever of its checks pass.
	r := w.run("doctor")
	noControl(t, "doctor stdout", r.stdout)
	noControl(t, "doctor stderr", r.stderr)
	mustContain(t, "doctor", r.stdout, `as ux\x1b[2J`)
	r = w.run("pg", "get", "evil")
	mustContain(t, "card", r.stdout, `pgx\x1b[2J\x1b]0;pwned\x07`, `\u202e`)
	// Errors: the message, the details and the request id.
	r = w.run("pg", "get", "bad")
	if r.code != 5 {
		t.Fatalf("a 422: %s", r)
	}
	noControl(t, "error", r.stderr)
	mustContain(t, "error details", r.stderr, `isx\x1b[2J`)
	// --json stays exact.
	var pg map[string]any
	w.jsonOf(&pg, "pg", "get", "evil")
	if pg["name"] != "pg"+esc || pg["status"] != esc {
		t.Fatalf("--json changed the server's text: %q %q", pg["name"], pg["status"])
	}
	r = w.run("pg", "get", "bad", "--json")
	var doc struct {
		Error struct {
			Message string         `json:"message"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stderr), &doc); err != nil || doc.Error.Details["step"+esc] != esc {
		t.Fatalf("--json error document changed: %v\n%s", err, r)
	}
}

func TestHostileBodiesThatAreNotJSONFail(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	for _, args := range [][]string{
		{"api", "truncated", "--json"}, // a fragment printed with exit 0 before
		{"api", "truncated"},           // said to be JSON, and is not
		{"api", "text", "--json"},      // not JSON where --json promises JSON
		{"pg", "get", "nullpg"},        // "ID: 0" with exit 0 before
		{"pg", "get", "nullpg", "--json"},
	} {
		r := w.run(args...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "INVALID_RESPONSE") {
			t.Errorf("fibe %s: want INVALID_RESPONSE, exit 1, nothing on stdout\n%s", strings.Join(args, " "), r)
		}
	}
	if r := w.ok("api", "text"); !strings.HasPrefix(r.stdout, "hello ") {
		t.Errorf("a text answer without --json is printed: %s", r)
	}
}

func TestHostileRedirectKeepsTheKeyHome(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	// Not followed to another origin: the 302 is the answer, not JSON.
	r := w.run("api", "redirect")
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "302") {
		t.Fatalf("a redirect to another origin: %s", r)
	}
	h.mu.Lock()
	auth := append([]string(nil), h.otherAuth...)
	h.mu.Unlock()
	if len(auth) != 0 {
		t.Fatalf("the other origin was asked (Authorization %q)", auth)
	}
	// A loop on the API's own origin ends after a few hops, once.
	r = w.run("api", "loop")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("a redirect loop: %s", r)
	}
	if n := h.count("GET /api/loop"); n < 2 || n > 10 {
		t.Fatalf("the loop was followed %d times", n)
	}
	timed(t, w, 20*time.Second, "api", "me")
}

// Bad input sends nothing, exits 2, and never counts against a breaker:
// two `-H` with a line break used to open it for every later call.
func TestHostileBadInputSendsNothing(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	for range 3 {
		r := w.run("api", "me", "-H", "X-Evil: a\r\nInjected: 1")
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Fatalf("a header with a line break: %s", r)
		}
	}
	for _, p := range []string{"/api/../../landed", "../_local/stats", "playgrounds/%2e%2e/%2e%2e/landed"} {
		r := w.run("api", p)
		if r.code != 2 || !strings.Contains(r.stderr, "..") {
			t.Fatalf("fibe api %s: %s", p, r)
		}
	}
	if n := h.total(); n != 0 {
		t.Fatalf("%d requests sent for bad input: %v", n, h.hits)
	}
	r := w.ok("breaker", "status", "--json")
	if strings.Contains(r.stdout, `"open"`) {
		t.Fatalf("a breaker opened on requests never sent: %s", r)
	}
	w.ok("api", "me")
}

func TestHostileJournalKeepsNoQueryAndNoReads(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	if r := w.run("api", "-X", "POST", "playgrounds/x/logs"); r.code == 0 {
		t.Fatalf("a 502 passed: %s", r)
	}
	r := w.ok("ops", "pending", "--json")
	if strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("a read-only POST was journaled: %s", r.stdout)
	}
	w.run("api", "-X", "POST", "marquees/local/ssh_keys?access_token=SECRET1")
	w.run("api", "-X", "POST", "marquees/local/ssh_keys?access_token=SECRET2", "--idempotency-key", "given-key-1")
	var list []struct {
		Key      string `json:"idempotency_key"`
		Path     string `json:"path"`
		Explicit bool   `json:"explicit"`
	}
	r = w.jsonOf(&list, "ops", "pending")
	if len(list) != 2 || strings.Contains(r.stdout, "SECRET") {
		t.Fatalf("pending: %s", r.stdout)
	}
	for _, e := range list {
		if e.Path != "/api/marquees/local/ssh_keys" || e.Explicit != (e.Key == "given-key-1") {
			t.Fatalf("pending: %s", r.stdout)
		}
	}
	r = w.ok("ops", "pending")
	mustContain(t, "pending table", r.stdout, "given-key-1", "(given key)")
	if strings.Contains(r.stdout+r.stderr, "SECRET") {
		t.Fatalf("a query value is shown: %s", r)
	}
	_ = filepath.WalkDir(w.home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "SECRET") {
				t.Errorf("%s keeps a query value", p)
			}
		}
		return nil
	})
}

func TestHostileURLsNeverEchoThePassword(t *testing.T) {
	w := newUser(t)
	for _, args := range [][]string{
		{"--state-store", "redis:/u:S3cretPW@host:1/0", "config", "list"},
		{"--state-store", "u:S3cretPW@host:1", "config", "list"},
		{"--state-store", "redis://u:S3cretPW%zz@host:1/0", "config", "list"},
		{"--api-url", "https://user:S3cretPW@", "config", "list"},
		{"--api-url", "https://user:S3cretPW%zz@host", "config", "list"},
	} {
		for _, j := range [][]string{nil, {"--json"}} {
			r := w.run(append(args, j...)...)
			if r.code != 2 || strings.Contains(r.stdout+r.stderr, "S3cret") {
				t.Errorf("fibe %s: %s", strings.Join(append(args, j...), " "), r)
			}
		}
	}
	// A password on the command line works, is masked, and is warned
	// about once: ps shows it to other users.
	r := w.ok("--state-store", "redis://fleet:S3cretPW@127.0.0.1:1/0", "breaker", "status")
	if strings.Contains(r.stdout+r.stderr, "S3cretPW") || strings.Count(r.stderr, "Warning:") != 1 {
		t.Fatalf("%s", r)
	}
	mustContain(t, "warning", r.stderr, "--state-store", "FIBE_STATE_STORE", "redis://****@127.0.0.1:1/0")
	r = w.ok("--state-store", "redis://fleet:S3cretPW@127.0.0.1:1/0", "config", "list")
	mustContain(t, "masked", r.stdout, "redis://****@127.0.0.1:1/0")
	w.env["FIBE_STATE_STORE"] = "redis://fleet:S3cretPW@127.0.0.1:1/0"
	if r := w.ok("breaker", "status"); strings.Contains(r.stderr, "Warning:") || strings.Contains(r.stderr, "S3cretPW") {
		t.Fatalf("the environment is the way, and gets no warning: %s", r)
	}
}

// The MCP server inherits every rule from the client: dot segments and
// bodies that are not JSON are refused the same way, as tool errors.
func TestHostileMCP(t *testing.T) {
	h := newHostile(t)
	w := h.world(t)
	cs, _ := mcpStdio(t, w)
	code := func(res *mcp.CallToolResult) (string, map[string]any) {
		t.Helper()
		var doc struct {
			Error struct {
				Code    string         `json:"code"`
				Details map[string]any `json:"details"`
			} `json:"error"`
		}
		data, _ := json.Marshal(res.StructuredContent)
		if !res.IsError || json.Unmarshal(data, &doc) != nil {
			t.Fatalf("not a tool error: %s", data)
		}
		return doc.Error.Code, doc.Error.Details
	}
	for _, p := range []string{"/api/../../_local/stats", "playgrounds/../../x"} {
		c, d := code(callTool(t, cs, "fibe_api", map[string]any{"path": p}))
		if c != "INVALID_ARGUMENT" || d["field"] != "path" {
			t.Fatalf("fibe_api %s: %s %v", p, c, d)
		}
	}
	if n := h.total(); n != 0 {
		t.Fatalf("%d requests for refused paths", n)
	}
	if c, _ := code(callTool(t, cs, "fibe_api", map[string]any{"path": "truncated"})); c != "INVALID_RESPONSE" {
		t.Fatalf("truncated: %s", c)
	}
	if c, _ := code(callTool(t, cs, "fibe_playgrounds_get", map[string]any{"playground": "nullpg"})); c != "INVALID_RESPONSE" {
		t.Fatalf("null playground: %s", c)
	}
	res := callTool(t, cs, "fibe_playgrounds_get", map[string]any{"playground": "evil"})
	data, _ := json.Marshal(res.StructuredContent)
	var pg map[string]any
	if res.IsError || json.Unmarshal(data, &pg) != nil || pg["name"] != "pg"+esc {
		t.Fatalf("the JSON result must keep the exact text: %s", data)
	}
}
