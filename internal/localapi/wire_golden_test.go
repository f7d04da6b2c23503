package localapi

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// The wire transcript pins every answer the emulator gives, byte for byte:
// status, headers and body of each request of a script that walks every
// route through its success and error paths, the body and idempotency
// checks, authentication, rate limiting and seeded chaos runs (whose
// faults depend on the order in which the random generator is drawn).
// A change to how requests are handled inside the emulator must leave it
// as it is; a change to what the emulator answers regenerates it with
//
//	go test ./internal/localapi -run TestWireTranscript -update-wire
//
// and the diff of testdata/wire.golden shows what clients will see.

var updateWire = flag.Bool("update-wire", false, "rewrite testdata/wire.golden")

// transcript records requests and their answers with the values that
// differ from run to run (request ids, stream tokens, the port, Date)
// replaced by stable names.
type transcript struct {
	e   *env
	b   strings.Builder
	ids map[string]string
}

var (
	requestIDPattern = regexp.MustCompile(`req_[0-9a-f]{16}`)
	tokenPattern     = regexp.MustCompile(`token=[0-9a-f]{48}`)
)

func newTranscript(t *testing.T, title string, cfg Config) *transcript {
	t.Helper()
	e := newEnv(t, cfg)
	// A fresh connection per request: the client then never retries a
	// request on its own after a reset, so the server sees the script as is.
	e.hc = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	tr := &transcript{e: e, ids: map[string]string{}}
	fmt.Fprintf(&tr.b, "#### %s\n", title)
	return tr
}

func (tr *transcript) stable(s string) string {
	s = strings.ReplaceAll(s, strings.TrimPrefix(tr.e.hs.URL, "http://"), "HOST")
	s = tokenPattern.ReplaceAllString(s, "token=TOKEN")
	return requestIDPattern.ReplaceAllStringFunc(s, func(id string) string {
		if n, ok := tr.ids[id]; ok {
			return n
		}
		n := fmt.Sprintf("req_%d", len(tr.ids)+1)
		tr.ids[id] = n
		return n
	})
}

// send makes one request and writes it and its answer to the transcript.
func (tr *transcript) send(method, path string, body any, opts ...reqOpt) {
	tr.e.t.Helper()
	line := method + " " + path
	switch b := body.(type) {
	case nil:
	case []byte:
		line += fmt.Sprintf(" %q", b)
	default:
		line += " " + string(mustJSON(tr.e.t, b))
	}
	tr.b.WriteString("\n> " + tr.stable(line) + "\n")
	r, err := tr.e.try(method, path, body, opts...)
	if err != nil {
		if !isReset(err) && !strings.Contains(err.Error(), "EOF") {
			tr.e.t.Fatalf("%s %s: %v", method, path, err)
		}
		tr.b.WriteString("< connection dropped\n")
		return
	}
	fmt.Fprintf(&tr.b, "< %d\n", r.status)
	keys := make([]string, 0, len(r.header))
	for k := range r.header {
		if k != "Date" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&tr.b, "< %s: %s\n", k, tr.stable(strings.Join(r.header[k], ", ")))
	}
	tr.b.WriteString(tr.stable(string(bytes.TrimRight(r.body, "\n"))) + "\n")
}

func (tr *transcript) advance(d time.Duration) {
	tr.e.clock.Advance(d)
	fmt.Fprintf(&tr.b, "\n~ %s later\n", d)
}

func TestWireTranscript(t *testing.T) {
	var all strings.Builder
	for _, sc := range wireScenarios {
		tr := newTranscript(t, sc.title, sc.cfg)
		sc.run(tr)
		tr.send("GET", "/_local/stats", nil)
		all.WriteString(tr.b.String())
		all.WriteString("\n")
	}
	got := all.String()
	path := filepath.Join("testdata", "wire.golden")
	if *updateWire {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-wire to create it)", err)
	}
	if got == string(want) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(gl) || i < len(wl); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			from := max(0, i-8)
			t.Fatalf("the wire transcript differs from %s at line %d:\ngot:  %q\nwant: %q\ncontext (got):\n%s",
				path, i+1, g, w, strings.Join(gl[from:min(i+1, len(gl))], "\n"))
		}
	}
}

type wireScenario struct {
	title string
	cfg   Config
	run   func(tr *transcript)
}

var wireScenarios = []wireScenario{
	{"requests that never reach a handler", Config{RateLimit: 40}, func(tr *transcript) {
		tr.send("GET", "/api/me", nil, withHeader("Authorization", ""))
		tr.send("GET", "/api/me", nil, withHeader("Authorization", "Bearer wrong"))
		tr.send("GET", "/api/me", nil, withHeader("Authorization", "Basic abc"))
		tr.send("GET", "/api/nothing", nil)
		tr.send("GET", "/api/playgrounds/x/nothing", nil)
		tr.send("PATCH", "/api/me", nil)
		tr.send("DELETE", "/api/playgrounds", nil)
		tr.send("GET", "/_local/nothing", nil)
		// (A body over the limit is left to TestBadInput: the answer races
		// the client still sending it, which may see a reset instead.)
		tr.send("POST", "/api/playgrounds", []byte(`name=x`), withHeader("Content-Type", "text/plain"))
		tr.send("POST", "/api/playgrounds", []byte(`{}`), withHeader("Content-Type", ""))
		tr.send("POST", "/api/playgrounds", []byte(`{"playground": {`))
		tr.send("POST", "/api/playgrounds", []byte(`{} {}`))
		tr.send("POST", "/api/playgrounds", []byte(`[1]`))
		tr.send("POST", "/api/playgrounds", []byte(`   `))
		tr.send("POST", "/api/playgrounds", []byte(`{"playground":{"name":"v","playspec_id":"web"}}`),
			withHeader("Content-Type", "application/vnd.api+json"))
		tr.send("POST", "/api/marquees/local/ssh_keys", nil, withIdem("has space"))
		tr.send("POST", "/api/marquees/local/ssh_keys", nil, withIdem(strings.Repeat("k", 256)))
		tr.send("GET", "/api/me", nil, withIdem("ignored on reads"))
		tr.send("POST", "/_local/chaos", map[string]any{"spec": 3})
		tr.send("POST", "/_local/chaos", map[string]any{"spec": "nonsense"})
		tr.send("POST", "/_local/chaos", map[string]any{"spec": "503=0.7,500=0.7"})
		tr.send("POST", "/_local/chaos", map[string]any{"spec": ""})
		tr.send("GET", "/api/me", nil)
		tr.send("GET", "/api/cable_url", nil)
		tr.send("GET", "/api/cable_url", nil, withHeader("X-Forwarded-Proto", "https"))
	}},
	{"rate limit", Config{RateLimit: 3, RateWindow: 10 * time.Second}, func(tr *transcript) {
		for i := 0; i < 3; i++ {
			tr.send("GET", "/api/me", nil)
		}
		tr.send("GET", "/api/me", nil)
		tr.send("GET", "/_local/stats", nil)
		tr.send("GET", "/api/me", nil, withHeader("Authorization", "Bearer other"))
		tr.advance(4 * time.Second)
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "r", "playspec_id": "web"}})
		tr.advance(10 * time.Second)
		tr.send("GET", "/api/me", nil)
	}},
	{"playgrounds", Config{RateLimit: 100000}, playgroundScript},
	{"marquees and playspecs", Config{RateLimit: 100000}, marqueeScript},
	{"idempotency", Config{RateLimit: 100000, Chaos: "commit-then-hang=1:1ms"}, func(tr *transcript) {
		pg := map[string]any{"playground": map[string]any{"name": "once", "playspec_id": "web"}}
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"))
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"))
		tr.send("POST", "/_local/chaos", map[string]any{"spec": ""})
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"))
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"))
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "two", "playspec_id": "web"}}, withIdem("k1"))
		tr.send("POST", "/api/playgrounds?x=1", pg, withIdem("k1"))
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"), withHeader("Authorization", "Bearer other"))
		bad := map[string]any{"playground": map[string]any{"name": "BAD", "playspec_id": "web"}}
		tr.send("POST", "/api/playgrounds", bad, withIdem("k2"))
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "good", "playspec_id": "web"}}, withIdem("k2"))
		tr.send("POST", "/api/playgrounds/once/operations", map[string]any{"action_type": "stop"}, withIdem("k3"))
		tr.send("POST", "/api/playgrounds/once/operations", map[string]any{"action_type": "stop"}, withIdem("k3"))
		tr.advance(25 * time.Hour)
		tr.send("POST", "/api/playgrounds", pg, withIdem("k1"))
		tr.send("DELETE", "/api/playgrounds/good", nil, withIdem("k4"))
		tr.send("DELETE", "/api/playgrounds/good", nil, withIdem("k4"))
	}},
	{"seeded chaos on every route", Config{RateLimit: 100000, Seed: 42, Chaos: "503=0.08,500=0.05,502=0.05,504=0.05,429=0.05," +
		"reset=0.05,panic=0.05,commit-then-502=0.1,commit-then-reset=0.05,commit-then-hang=0.05:1ms,latency=0.2:1ms"}, func(tr *transcript) {
		for i := 0; i < 6; i++ {
			name := fmt.Sprintf("c%d", i)
			tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}}, withIdem("create-"+name))
			tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}}, withIdem("create-"+name))
			tr.send("GET", "/api/playgrounds/"+name, nil)
			tr.send("POST", "/api/playgrounds/"+name+"/operations", map[string]any{"action_type": "rollout"})
			tr.advance(5 * time.Second)
			tr.send("PATCH", "/api/playgrounds/"+name, map[string]any{"playground": map[string]any{"env_overrides": map[string]any{"A": "b"}}})
			tr.send("POST", "/api/playgrounds/"+name+"/expiration", map[string]any{"duration_hours": 2})
			tr.send("POST", "/api/playgrounds/"+name+"/logs", map[string]any{"tail": 3})
			tr.send("POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": "m" + name, "host": "h.fibe.test"}})
			tr.send("GET", "/api/marquees?sort=name_desc", nil)
			tr.send("POST", "/api/marquees/local/connection_tests", nil)
			tr.send("GET", "/api/playspecs/web", nil)
			tr.send("DELETE", "/api/playgrounds/"+name, nil)
			tr.send("GET", "/_local/stats", nil)
		}
		tr.send("POST", "/_local/chaos", map[string]any{"spec": "outage=marquee/prod-eu@0s+1h"})
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "eu", "playspec_id": "web", "marquee_id": "prod-eu"}})
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "eu", "playspec_id": "web", "marquee_id": 2}})
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "loc", "playspec_id": "web"}})
		for i := 0; i < 8; i++ {
			tr.send("GET", "/api/marquees/prod-eu", nil)
			tr.send("GET", "/api/marquees/2", nil)
		}
		tr.send("GET", "/api/marquees/local", nil)
		tr.send("GET", "/api/playgrounds", nil)
		tr.advance(2 * time.Hour)
		tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "eu", "playspec_id": "web", "marquee_id": "prod-eu"}})
		tr.send("POST", "/_local/chaos", map[string]any{"spec": "outage=marquee/prod-eu@0s+1h"})
		tr.send("GET", "/api/playgrounds/eu", nil)
		tr.send("POST", "/api/playgrounds/eu/operations", map[string]any{"action_type": "stop"})
		tr.send("GET", "/api/playgrounds/eu/status", nil)
		// An outage and injected faults together: the outage answers first.
		tr.send("POST", "/_local/chaos", map[string]any{"spec": "outage=marquee/prod-eu@0s+1h,503=0.3,reset=0.1,commit-then-502=0.2"})
		for i := 0; i < 6; i++ {
			tr.send("GET", "/api/playgrounds/eu", nil)
			tr.send("PATCH", "/api/marquees/prod-eu", map[string]any{"marquee": map[string]any{"user": "fibe"}})
			tr.send("PATCH", "/api/marquees/local", map[string]any{"marquee": map[string]any{"user": "fibe"}})
		}
	}},
	{"legacy async, alt status URL", Config{LegacyAsync: true, StatusURLStyle: "alt"}, asyncScript},
	{"async create, absolute status URL", Config{AsyncCreate: true, StatusURLStyle: "absolute", Speed: 2}, asyncScript},
}

func playgroundScript(tr *transcript) {
	pg := func(fields map[string]any) map[string]any { return map[string]any{"playground": fields} }
	tr.send("GET", "/api/playgrounds", nil)
	for _, q := range []string{"page=0", "page=x", "per_page=0", "per_page=500", "status=nope", "created_after=yesterday",
		"created_before=2030-13-01", "sort=colour", "sort=name,-nope", "playspec_id=nope", "marquee_id=nope",
		"sort=" + strings.Repeat("x", 60)} {
		tr.send("GET", "/api/playgrounds?"+q, nil)
	}
	tr.send("GET", "/api/playgrounds/nope", nil)
	tr.send("GET", "/api/playgrounds/1", nil)
	tr.send("POST", "/api/playgrounds", map[string]any{})
	tr.send("POST", "/api/playgrounds", map[string]any{"playground": "x"})
	for _, f := range []map[string]any{
		{},
		{"name": 3},
		{"name": " "},
		{"name": "Upper"},
		{"name": "123"},
		{"name": "a"},
		{"name": "a", "playspec_id": true},
		{"name": "a", "playspec_id": ""},
		{"name": "a", "playspec_id": 1.5},
		{"name": "a", "playspec_id": "nope"},
		{"name": "a", "playspec_id": 9},
		{"name": "a", "playspec_id": "web", "marquee_id": []any{}},
		{"name": "a", "playspec_id": "web", "marquee_id": "nope"},
		{"name": "a", "playspec_id": "web", "env_overrides": "x"},
		{"name": "a", "playspec_id": "web", "env_overrides": map[string]any{"A": 1}},
		{"name": "a", "playspec_id": "web", "marquee_id": "unpaid"},
		{"name": "a", "playspec_id": "web", "env_overrides": map[string]any{"A": "1"}},
		{"name": "a", "playspec_id": "web"},
		{"name": "b", "playspec_id": 2, "marquee_id": 2},
		{"name": "c", "playspec_id": "web", "marquee_id": "prod-eu"},
	} {
		tr.send("POST", "/api/playgrounds", pg(f))
	}
	tr.send("GET", "/api/playgrounds/a/status", nil)
	tr.send("POST", "/api/playgrounds/a/operations", map[string]any{"action_type": "stop"})
	tr.advance(4 * time.Second)
	tr.send("GET", "/api/playgrounds?status=running&sort=created_at_desc&per_page=2&page=1", nil)
	tr.send("GET", "/api/playgrounds?q=A&playspec_id=web&marquee_id=local", nil)
	tr.send("GET", "/api/playgrounds?name=B&created_after=2030-01-01&created_before=2031-01-01T00:00", nil)
	tr.send("GET", "/api/playgrounds?page=99999999999", nil)

	// Actions.
	for _, b := range []any{nil, map[string]any{}, map[string]any{"action_type": 1}, map[string]any{"action_type": "nope"},
		map[string]any{"action_type": "rollout", "force": "yes"}} {
		tr.send("POST", "/api/playgrounds/a/operations", b)
	}
	tr.send("POST", "/api/playgrounds/nope/operations", map[string]any{"action_type": "rollout"})
	tr.send("POST", "/api/playgrounds/a/operations", map[string]any{"action_type": "rollout", "force": true})
	tr.send("POST", "/api/playgrounds/a/operations", map[string]any{"action_type": "stop"})
	tr.send("POST", "/api/playgrounds/b/operations", map[string]any{"action_type": "rollout"})
	tr.advance(time.Second)
	tr.send("GET", "/api/playgrounds/b/status", nil)
	tr.advance(5 * time.Second)
	tr.send("GET", "/api/playgrounds/b/status", nil)
	tr.send("GET", "/api/playgrounds/a", nil)
	for _, k := range []string{"enable_maintenance", "hard_restart", "disable_maintenance", "start", "retry_compose"} {
		tr.send("POST", "/api/playgrounds/c/operations", map[string]any{"action_type": k})
		tr.advance(5 * time.Second)
	}
	tr.send("GET", "/api/playgrounds/c/status", nil)
	tr.send("POST", "/api/playgrounds/b/status", nil)
	tr.send("POST", "/api/playgrounds/nope/status", nil)
	tr.advance(time.Second)

	// Extension.
	for _, b := range []any{nil, map[string]any{"duration_hours": "x"}, map[string]any{"duration_hours": 0},
		map[string]any{"duration_hours": 721}, map[string]any{"duration_hours": "12"}, map[string]any{"duration_hours": 3}} {
		tr.send("POST", "/api/playgrounds/a/expiration", b)
	}
	tr.send("POST", "/api/playgrounds/nope/expiration", nil)

	// Logs.
	for _, b := range []any{nil, map[string]any{"service": 1}, map[string]any{"service": "nope"}, map[string]any{"tail": "x"},
		map[string]any{"tail": 0}, map[string]any{"tail": 10001}, map[string]any{"service": "web", "tail": 3},
		map[string]any{"service": "", "tail": 2}} {
		tr.send("POST", "/api/playgrounds/a/logs", b)
	}
	tr.send("POST", "/api/playgrounds/nope/logs", nil)
	tr.advance(time.Second)

	// Updates.
	tr.send("PATCH", "/api/playgrounds/nope", pg(map[string]any{"name": "z"}))
	tr.send("PATCH", "/api/playgrounds/a", map[string]any{})
	tr.send("PATCH", "/api/playgrounds/a", pg(map[string]any{"name": "b"}))
	tr.send("PATCH", "/api/playgrounds/a", pg(map[string]any{"name": "Bad Name"}))
	tr.send("PATCH", "/api/playgrounds/a", pg(map[string]any{"name": 7}))
	tr.send("PATCH", "/api/playgrounds/a", pg(map[string]any{"env_overrides": []any{}}))
	tr.send("PATCH", "/api/playgrounds/a", pg(map[string]any{"name": "a"}))
	tr.send("PUT", "/api/playgrounds/a", pg(map[string]any{"name": "a2", "env_overrides": map[string]any{"X": "y"}}))

	// Deletion.
	tr.send("DELETE", "/api/playgrounds/nope", nil)
	tr.send("POST", "/api/playgrounds/a2/operations", map[string]any{"action_type": "hard_restart"})
	tr.send("DELETE", "/api/playgrounds/a2", nil)
	tr.send("DELETE", "/api/playgrounds/a2", nil)
	tr.send("PATCH", "/api/playgrounds/a2", pg(map[string]any{"name": "a3"}))
	tr.send("POST", "/api/playgrounds/a2/expiration", nil)
	tr.send("POST", "/api/playgrounds/a2/operations", map[string]any{"action_type": "start"})
	tr.advance(time.Second)
	tr.send("GET", "/api/playgrounds/a2", nil)
	tr.advance(3 * time.Second)
	tr.send("GET", "/api/playgrounds/a2", nil)
	tr.send("DELETE", "/api/playgrounds/b", nil)
	tr.send("GET", "/api/playgrounds", nil)
	tr.send("GET", "/api/async_requests/req_0000000000000000", nil)
	tr.send("GET", "/api/operations/nope/state", nil)
}

func marqueeScript(tr *transcript) {
	mq := func(fields map[string]any) map[string]any { return map[string]any{"marquee": fields} }
	tr.send("GET", "/api/marquees", nil)
	for _, q := range []string{"status=on", "sort=host,-status", "sort=size", "q=PROD", "name=local", "per_page=1&page=2",
		"created_after=2030-01-02T03:04:05Z", "created_before=2030-01-02T03:04:06+01:00", "page=-1"} {
		tr.send("GET", "/api/marquees?"+q, nil)
	}
	tr.send("GET", "/api/marquees/nope", nil)
	tr.send("GET", "/api/marquees/3", nil)
	tr.send("POST", "/api/marquees", map[string]any{"name": "x"})
	for _, f := range []map[string]any{
		{"name": "local", "host": "x.fibe.test"},
		{"name": "m1"},
		{"name": "m1", "host": 1},
		{"name": "m1", "host": "a b"},
		{"name": "m1", "host": "h", "port": "x"},
		{"name": "m1", "host": "h", "port": 0},
		{"name": "m1", "host": "h", "port": 70000},
		{"name": "m1", "host": "h", "user": " "},
		{"name": "m1", "host": "h", "user": 1},
		{"name": "m1", "host": "h", "status": "on"},
		{"name": "m1", "host": "h", "status": 1},
		{"name": "m1", "host": "h", "domains_input": 1},
		{"name": "m1", "host": "h", "acme_email": "nope"},
		{"name": "m1", "host": "h", "acme_email": 1},
		{"name": "m1", "host": "h", "https_enabled": "yes"},
		{"name": "m1", "host": "h", "prop_id": "x"},
		{"name": "m1", "host": "h", "ssh_private_key": 1},
		{"name": "m1", "host": "h", "dockerhub_auth_enabled": true},
		{"name": "m1", "host": "h", "dockerhub_auth_enabled": true, "dockerhub_username": "u"},
		{"name": "m1", "host": "h.fibe.test", "port": "2222", "user": "deploy", "status": "active", "domains_input": " d.test ",
			"tls_certificate_source": "letsencrypt", "acme_email": " a@b.test ", "https_enabled": true, "dockerhub_auth_enabled": true,
			"dockerhub_username": "u", "dockerhub_token": "secret", "build_platform": "linux/arm64", "prop_id": 7,
			"ssh_private_key": "-----BEGIN KEY-----", "tls_private_key": " "},
		{"name": "m2", "host": "bad.invalid", "prop_id": nil},
	} {
		tr.send("POST", "/api/marquees", mq(f))
	}
	tr.send("PATCH", "/api/marquees/nope", mq(map[string]any{"port": 1}))
	tr.send("PATCH", "/api/marquees/m1", map[string]any{})
	tr.send("PATCH", "/api/marquees/m1", mq(map[string]any{"name": "m2"}))
	tr.send("PATCH", "/api/marquees/m1", mq(map[string]any{"name": "-x"}))
	tr.send("PATCH", "/api/marquees/m1", mq(map[string]any{"port": -1}))
	tr.send("PATCH", "/api/marquees/m1", mq(map[string]any{"dockerhub_token": ""}))
	tr.send("PATCH", "/api/marquees/m1", mq(map[string]any{"name": "m3", "prop_id": nil, "dockerhub_auth_enabled": false}))
	tr.send("PUT", "/api/marquees/m3", mq(map[string]any{"status": "disabled"}))
	tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "p", "playspec_id": "web", "marquee_id": "m3"}})
	tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "p", "playspec_id": "web", "marquee_id": "m2"}})
	tr.send("DELETE", "/api/marquees/m2", nil)
	tr.send("DELETE", "/api/marquees/m3", nil)
	tr.send("DELETE", "/api/marquees/m3", nil)
	tr.send("POST", "/api/marquees/m2/connection_tests", nil)
	tr.send("POST", "/api/marquees/local/connection_tests", nil)
	tr.send("POST", "/api/marquees/nope/connection_tests", nil)
	tr.send("POST", "/api/marquees/local/ssh_keys", nil)
	tr.send("POST", "/api/marquees/local/ssh_keys", nil)
	tr.send("POST", "/api/marquees/nope/ssh_keys", nil)
	tr.advance(3 * time.Second)
	tr.send("GET", "/api/marquees?status=active&sort=id_desc", nil)
	tr.send("GET", "/api/playspecs", nil)
	tr.send("GET", "/api/playspecs?per_page=1&page=2", nil)
	tr.send("GET", "/api/playspecs?page=nope", nil)
	tr.send("GET", "/api/playspecs/2", nil)
	tr.send("GET", "/api/playspecs/nope", nil)
}

// asyncScript polls operations of every kind to their end.
func asyncScript(tr *transcript) {
	tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "w", "playspec_id": "web"}})
	tr.send("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "x", "playspec_id": "broken"}})
	tr.advance(time.Second)
	tr.send("GET", "/api/async_requests/req_0000000000000000", nil)
	tr.advance(3 * time.Second)
	// Operations that come due together settle in no fixed order, so these
	// start apart.
	for _, r := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/playgrounds/w/operations", map[string]any{"action_type": "rollout"}},
		{"POST", "/api/playgrounds/x/operations", map[string]any{"action_type": "rollout"}},
		{"POST", "/api/playgrounds/w/logs", map[string]any{"tail": 2}},
		{"POST", "/api/marquees/local/ssh_keys", nil},
		{"POST", "/api/marquees/local/connection_tests", nil},
		{"DELETE", "/api/playgrounds/w", nil},
	} {
		tr.send(r.method, r.path, r.body)
		tr.advance(10 * time.Millisecond)
	}
	tr.advance(5 * time.Second)
	// Each operation's status, through the URL the answers named.
	ids := make([]string, 0, len(tr.ids))
	for id := range tr.ids {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return tr.ids[ids[i]] < tr.ids[ids[j]] })
	for _, id := range ids {
		tr.send("GET", "/api/async_requests/"+id, nil)
		tr.send("GET", "/api/operations/"+id+"/state", nil)
	}
	tr.send("GET", "/api/playgrounds/x/status", nil)
}
