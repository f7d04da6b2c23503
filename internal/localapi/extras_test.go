package localapi

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

func bearer(token string) reqOpt { return withHeader("Authorization", "Bearer "+token) }

// The compose file is empty until the playground has been provisioned,
// then it names every service of the playspec; env metadata is never
// null, right after creation too, and a system key wins over an override.
func TestPlaygroundComposeAndEnv(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("cmp", "web", map[string]any{"env_overrides": map[string]any{"APP": "1", "FIBE_PLAYGROUND": "spoof"}})
	r := e.do("GET", "/api/playgrounds/cmp/compose", nil)
	expectStatus(t, r, http.StatusOK)
	body := r.json(t)
	if body["compose_yaml"] != "" || body["compose_project"] == "" {
		t.Fatalf("compose before provisioning: %s", r.body)
	}
	env := e.do("GET", "/api/playgrounds/cmp/env_metadata", nil).json(t)
	merged, _ := env["merged"].(map[string]any)
	meta, _ := env["metadata"].(map[string]any)
	keys, _ := env["system_keys"].([]any)
	if merged["APP"] != "1" || merged["FIBE_PLAYGROUND"] != "cmp" || meta == nil || len(keys) == 0 {
		t.Fatalf("env metadata: %v", env)
	}
	e.clock.Advance(provisionTime)
	yaml, _ := e.do("GET", "/api/playgrounds/cmp/compose", nil).json(t)["compose_yaml"].(string)
	for _, want := range []string{"services:\n", "  web:\n", "  worker:\n", "  db:\n", "APP: \"1\"", "FIBE_PLAYGROUND: cmp"} {
		if !strings.Contains(yaml, want) {
			t.Errorf("compose lacks %q:\n%s", want, yaml)
		}
	}
}

// Debug answers at once, or 202 with refresh=true and the report as the
// operation's result; its query is validated (422 naming the field).
func TestPlaygroundDebug(t *testing.T) {
	e := newEnv(t, Config{})
	e.createPG("dbg", "web", nil)
	e.clock.Advance(provisionTime)
	body := e.do("GET", "/api/playgrounds/dbg/debug", nil).json(t)
	pg, _ := body["playground"].(map[string]any)
	startup, _ := body["startup"].(map[string]any)
	if pg["name"] != "dbg" || pg["status"] != "running" || startup["state"] != "running" || body["mode"] != "summary" {
		t.Fatalf("debug: %v", body)
	}
	r := e.do("GET", "/api/playgrounds/dbg/debug?refresh=true&mode=full&service=web&logs_tail=4", nil)
	expectStatus(t, r, http.StatusAccepted)
	_, done := e.pollUntil(r.json(t)["status_url"].(string), 100*time.Millisecond)
	res, _ := done["result"].(map[string]any)
	services, _ := res["services"].([]any)
	tail, _ := res["startup"].(map[string]any)["log_tail"].([]any)
	if res["mode"] != "full" || res["refreshed"] != true || len(services) != 1 || len(tail) != 4 {
		t.Fatalf("refreshed debug: %v", done)
	}
	if _, hasValues := res["env_keys"].([]any); !hasValues {
		t.Errorf("a full report lacks env_keys: %v", res)
	}
	for q, field := range map[string]string{
		"mode=loud": "mode", "logs_tail=0": "logs_tail", "logs_tail=x": "logs_tail",
		"refresh=maybe": "refresh", "service=cache": "service",
	} {
		r := e.do("GET", "/api/playgrounds/dbg/debug?"+q, nil)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if r.errDetails(t)[field] == nil {
			t.Errorf("%s: the 422 does not name %s: %s", q, field, r.body)
		}
	}
}

// playgrounds:read suffices for all three; a key without a playgrounds
// scope is refused before the lookup; another player's playground and an
// unknown one are both 404.
func TestPlaygroundExtrasScopesAndOwnership(t *testing.T) {
	e := newEnv(t, Config{Players: 2})
	e.createPG("mine", "web", nil)
	ro, none := e.mint(1, "playgrounds:read"), e.mint(1, "agents:read")
	other := e.srv.primaryToken(2)
	for _, sub := range []string{"compose", "env_metadata", "debug"} {
		expectStatus(t, e.do("GET", "/api/playgrounds/mine/"+sub, nil, bearer(ro)), http.StatusOK)
		r := e.do("GET", "/api/playgrounds/999999/"+sub, nil, bearer(none))
		expectStatus(t, r, http.StatusForbidden)
		if r.errCode(t) != "FORBIDDEN" {
			t.Errorf("%s without scope: %s", sub, r.body)
		}
		for _, who := range []string{e.key, other} {
			ref := "999999"
			if who == other {
				ref = "mine"
			}
			r := e.do("GET", "/api/playgrounds/"+ref+"/"+sub, nil, bearer(who))
			expectStatus(t, r, http.StatusNotFound)
		}
	}
}

// An autoconnect token: an unwrapped body, a fresh hex token per call,
// marquees:write required, bad fields named.
func TestAutoconnectTokens(t *testing.T) {
	e := newEnv(t, Config{})
	hex64 := regexp.MustCompile(`^[0-9a-f]{64}$`)
	r := e.do("POST", "/api/autoconnect_tokens", map[string]any{"email": "ops@example.com"})
	expectStatus(t, r, http.StatusCreated)
	first, _ := r.json(t)["token"].(string)
	second, _ := e.do("POST", "/api/autoconnect_tokens", map[string]any{
		"email": "ops@example.com", "domain": "app.example.com", "ip": "10.0.0.1", "ssl_mode": "letsencrypt",
		"dns_provider": "route53", "dns_credentials": map[string]any{"aws_access_key_id": "AKIA"},
	}).json(t)["token"].(string)
	if !hex64.MatchString(first) || !hex64.MatchString(second) || first == second {
		t.Fatalf("tokens %q and %q", first, second)
	}
	if strings.Contains(e.logs.joined(), first) {
		t.Error("the token is in the emulator's log")
	}
	// A replay answers the same token.
	a := e.do("POST", "/api/autoconnect_tokens", map[string]any{}, withIdem("ac-replay-1")).json(t)["token"]
	b := e.do("POST", "/api/autoconnect_tokens", map[string]any{}, withIdem("ac-replay-1")).json(t)["token"]
	if a != b {
		t.Errorf("a replay minted another token")
	}
	r = e.do("POST", "/api/autoconnect_tokens", map[string]any{"email": "x"}, bearer(e.mint(1, "marquees:read")))
	expectStatus(t, r, http.StatusForbidden)
	for body, field := range map[string]string{
		`{"email": "nope"}`:                           "email",
		`{"ip": "300.0.0.1"}`:                         "ip",
		`{"ssl_mode": "sometimes"}`:                   "ssl_mode",
		`{"domain": "no spaces.example.com"}`:         "domain",
		`{"dns_credentials": "a=b"}`:                  "dns_credentials",
		`{"dns_credentials": {"k": "v"}}`:             "dns_provider",
		`{"dns_provider": "x", "dns_credentials": 1}`: "dns_credentials",
	} {
		r := e.do("POST", "/api/autoconnect_tokens", []byte(body))
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if r.errDetails(t)[field] == nil {
			t.Errorf("%s: the 422 does not name %s: %s", body, field, r.body)
		}
	}
}

// A playground's detail names its compose project and root domain; a
// marquee says whether it launches chats (active and paid for) and has a
// billing_requested_until (null: none pending).
func TestDetailExtras(t *testing.T) {
	e := newEnv(t, Config{})
	pg := e.createPG("det", "web", nil)
	cmp := e.do("GET", "/api/playgrounds/det/compose", nil).json(t)
	if pg["compose_project"] != cmp["compose_project"] || pg["root_domain"] != "det.local.fibe.test" || pg["routing_scheme"] != "subdomain" {
		t.Errorf("playground detail: %v", pg)
	}
	e.clock.Advance(defaultLifetime / 4)
	if p := e.do("GET", "/api/playgrounds/det", nil).json(t)["expiration_percentage"]; p != 25.0 {
		t.Errorf("expiration_percentage after a quarter of the lifetime: %v", p)
	}
	for name, want := range map[string]bool{"local": true, "unpaid": false} {
		m := e.do("GET", "/api/marquees/"+name, nil).json(t)
		if v, present := m["billing_requested_until"]; !present || v != nil {
			t.Errorf("%s: billing_requested_until %v (present %v)", name, v, present)
		}
		if m["chat_launchable"] != want {
			t.Errorf("%s: chat_launchable %v, want %v", name, m["chat_launchable"], want)
		}
	}
}
