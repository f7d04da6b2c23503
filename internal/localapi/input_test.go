package localapi

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	e := newEnv(t, Config{})
	big := bytes.Repeat([]byte("a"), maxBodyBytes+1)
	for _, tc := range []struct {
		name   string
		body   []byte
		ctype  string
		status int
	}{
		{"malformed", []byte(`{"playground": {"name": "x"`), "application/json", 400},
		{"trailing data", []byte(`{} {}`), "application/json", 400},
		{"not an object", []byte(`[1,2]`), "application/json", 400},
		{"too large", big, "application/json", 413},
		{"text", []byte(`name=x`), "text/plain", 415},
		{"form", []byte(`name=x`), "application/x-www-form-urlencoded", 415},
		{"no type", []byte(`{}`), "", 415},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do("POST", "/api/playgrounds", tc.body, withHeader("Content-Type", tc.ctype))
			expectStatus(t, r, tc.status)
			if code := r.errCode(t); code != "BAD_REQUEST" {
				t.Fatalf("code %q", code)
			}
			if r.header.Get("X-Request-Id") == "" {
				t.Fatal("no request id")
			}
		})
	}
	// A JSON variant type with parameters is fine.
	r := e.do("POST", "/api/playgrounds", []byte(`{"playground":{"name":"ok","playspec_id":"web"}}`),
		withHeader("Content-Type", "application/json; charset=utf-8"))
	expectStatus(t, r, http.StatusCreated)
	if e.srv.Stats().Mutations != 1 {
		t.Fatal("bad input counted as a mutation")
	}
}

// Garbage of every sort sent to every route never earns a 5xx.
func TestGarbageNeverCauses5xx(t *testing.T) {
	e := newEnv(t, Config{RateLimit: 100000})
	e.createPG("target", "web", nil)
	rng := rand.New(rand.NewPCG(1, 2))
	routes := []struct{ method, path string }{
		{"POST", "/api/playgrounds"}, {"PATCH", "/api/playgrounds/target"}, {"PUT", "/api/playgrounds/1"},
		{"POST", "/api/playgrounds/target/operations"}, {"POST", "/api/playgrounds/target/status"},
		{"POST", "/api/playgrounds/target/expiration"}, {"POST", "/api/playgrounds/target/logs"},
		{"POST", "/api/marquees"}, {"PATCH", "/api/marquees/local"}, {"POST", "/api/marquees/local/connection_tests"},
		{"POST", "/api/marquees/local/ssh_keys"}, {"POST", "/_local/chaos"}, {"GET", "/api/playgrounds"},
		{"DELETE", "/api/marquees/unpaid"},
	}
	fragments := []string{`{`, `}`, `[`, `]`, `"playground"`, `"marquee"`, `:`, `,`, `null`, `true`, `1e400`, `-1`,
		`"name"`, `"x"`, `{"a":{}}`, `"action_type"`, `"rollout"`, `"duration_hours"`, `"tail"`, `99999999999999999999`,
		`"port"`, `"env_overrides"`, `"marquee_id"`, `"playspec_id"`, `"\u0000"`, `"spec"`, `"503=x"`, "\xff"}
	for i := 0; i < 400; i++ {
		var b strings.Builder
		for n := rng.IntN(12); n >= 0; n-- {
			b.WriteString(fragments[rng.IntN(len(fragments))])
		}
		body := b.String()
		if i%3 == 0 { // well-formed wrappers with random members
			body = `{"playground":{` + strings.Trim(body, "{}") + `},"marquee":{"name":` + fragments[rng.IntN(len(fragments))] + `}}`
		}
		rt := routes[rng.IntN(len(routes))]
		r := e.do(rt.method, rt.path, []byte(body))
		if r.status >= 500 {
			t.Fatalf("%s %s with %q: %d %s", rt.method, rt.path, body, r.status, r.body)
		}
	}
	if strings.Contains(e.logs.joined(), "panic") {
		t.Fatalf("a handler panicked: %s", e.logs.joined())
	}
}
