package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

func TestAuthLoginWithTokenFile(t *testing.T) {
	t.Parallel()
	const key = "fibe_test_9f8e7d6c5b4a39281706"
	w := newWorld(t, localapi.Config{APIKey: key})
	delete(w.env, "FIBE_API_KEY")

	// A wrong key is refused by the API and not stored.
	r := w.runIn("fibe_bad_00000000000000\n", "auth", "login", "--with-token")
	if r.code != 4 {
		t.Fatalf("login with a bad key: %s", r)
	}
	creds := filepath.Join(w.home, "config", "fibe", "credentials.json")
	if _, err := os.Stat(creds); err == nil {
		t.Fatal("a refused key was stored")
	}

	r = w.runIn(key+"\n", "auth", "login", "--with-token")
	if r.code != 0 {
		t.Fatalf("login: %s", r)
	}
	mustContain(t, "login", r.stdout, "Logged in to "+w.url)
	info, err := os.Stat(creds)
	if err != nil {
		t.Fatalf("credentials file: %v", err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("credentials file mode %o, want 600", perm)
	}
	data, _ := os.ReadFile(creds)
	if !strings.Contains(string(data), key) {
		t.Errorf("credentials file does not hold the key")
	}
	if strings.Contains(r.stdout+r.stderr, key) {
		t.Error("login printed the key")
	}

	// The stored key is used, and auth status masks it.
	w.ok("pg", "list")
	r = w.ok("auth", "status")
	if strings.Contains(r.stdout+r.stderr, key) {
		t.Errorf("auth status printed the key:\n%s", r)
	}
	mustContain(t, "auth status", r.stdout, w.url, "Token:", "fibe_****", key[len(key)-4:], creds)

	var st struct {
		APIURL      string `json:"api_url"`
		Token       string `json:"token"`
		TokenSource string `json:"token_source"`
	}
	w.jsonOf(&st, "auth", "status")
	if st.APIURL != w.url || st.TokenSource != creds || strings.Contains(st.Token, key[5:20]) {
		t.Errorf("auth status json: %+v", st)
	}
	// The environment wins over the stored key.
	w.env["FIBE_API_KEY"] = key
	w.jsonOf(&st, "auth", "status")
	if st.TokenSource != "env FIBE_API_KEY" {
		t.Errorf("token source with FIBE_API_KEY: %q", st.TokenSource)
	}
	delete(w.env, "FIBE_API_KEY")

	mustContain(t, "logout", w.ok("auth", "logout").stdout, "Logged out")
	r = w.run("pg", "list")
	if r.code != 4 {
		t.Fatalf("after logout: %s", r)
	}
	mustContain(t, "login hint", r.stderr, "fibe --api-url "+w.env["FIBE_API_URL"]+" auth login")
}

func TestConfigPrecedence(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	get := func(args ...string) (string, string) {
		var v struct{ Value, Source string }
		w.jsonOf(&v, append([]string{"config", "get"}, args...)...)
		return v.Value, v.Source
	}
	if v, src := get("timeout"); v != "30s" || src != "default" {
		t.Errorf("default: %s from %s", v, src)
	}
	w.ok("config", "set", "timeout", "45s")
	if v, src := get("timeout"); v != "45s" || src != "config file" {
		t.Errorf("file: %s from %s", v, src)
	}
	w.ok("--profile", "staging", "config", "set", "timeout", "50s")
	if v, src := get("timeout", "--profile", "staging"); v != "50s" || src != "profile staging" {
		t.Errorf("profile: %s from %s", v, src)
	}
	w.env["FIBE_PROFILE"] = "staging"
	if v, _ := get("timeout"); v != "50s" {
		t.Errorf("FIBE_PROFILE: %s", v)
	}
	w.env["FIBE_TIMEOUT"] = "55s"
	if v, src := get("timeout"); v != "55s" || src != "env FIBE_TIMEOUT" {
		t.Errorf("env: %s from %s", v, src)
	}
	if v, src := get("timeout", "--timeout", "1m"); v != "1m0s" || src != "flag --timeout" {
		t.Errorf("flag: %s from %s", v, src)
	}
	w.env["FIBE_DOMAIN"] = "api.example.test"
	if v, src := get("api_url"); v != "https://api.example.test" || src != "env FIBE_DOMAIN" {
		t.Errorf("FIBE_DOMAIN: %s from %s", v, src)
	}
	r := w.ok("config", "list")
	mustContain(t, "config list", r.stdout, "KEY", "api_url", "timeout", "55s", "env FIBE_TIMEOUT")

	// A bad value from the environment is a usage error, whatever the command.
	w.env["FIBE_TIMEOUT"] = "soon"
	if r := w.run("config", "get", "timeout"); r.code != 2 {
		t.Errorf("bad FIBE_TIMEOUT: %s", r)
	}
	if r := w.run("config", "set", "max_retries", "many"); r.code != 2 {
		t.Errorf("bad value: %s", r)
	}
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		if r := w.ok("completion", shell); !strings.Contains(r.stdout, "fibe") {
			t.Errorf("completion %s: %s", shell, r)
		}
	}
	w.ok("pg", "create", "--name", "complete-me", "--playspec", "web")
	r := w.ok("__complete", "pg", "get", "comp")
	mustContain(t, "dynamic playground names", r.stdout, "complete-me")
	r = w.ok("__complete", "mq", "test-connection", "")
	mustContain(t, "dynamic marquee names", r.stdout, "prod-eu", "local")
	r = w.ok("__complete", "pg", "create", "--marquee", "pro")
	mustContain(t, "--marquee values", r.stdout, "prod-eu")

	dir := t.TempDir()
	w.ok("completion", "--generate-dir", dir)
	for _, f := range []string{"fibe.bash", "_fibe", "fibe.fish", "fibe.ps1"} {
		if info, err := os.Stat(filepath.Join(dir, f)); err != nil || info.Size() == 0 {
			t.Errorf("generated %s: %v", f, err)
		}
	}
}

func TestLocalServe(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	p := w.start("local", "serve", "--addr", "127.0.0.1:0", "--speed", "50", "--status-url", "alt", "--legacy-async")
	exportRE := regexp.MustCompile(`export FIBE_API_URL=(\S+) FIBE_API_KEY=(\S+)`)
	p.waitFor(t, 10*time.Second, "the export line", func(stdout, _ string) bool { return exportRE.MatchString(stdout) })
	stdout, _ := p.output()
	m := exportRE.FindStringSubmatch(stdout)
	mustContain(t, "serve banner", stdout, "listening on "+m[1])

	client := newUser(t)
	client.env["FIBE_API_URL"], client.env["FIBE_API_KEY"] = m[1], m[2]
	client.ok("pg", "create", "--name", "served", "--playspec", "web")
	mustContain(t, "rollout via served API", client.ok("pg", "rollout", "served").stdout, "running")
	// --status-url alt moved the status URL; the CLI polls what it is given.
	var h struct {
		StatusURL string `json:"status_url"`
	}
	r := client.jsonOf(&h, "pg", "restart", "served", "--no-wait")
	if h.StatusURL == "" || strings.HasPrefix(h.StatusURL, "/api/async_requests/") {
		t.Errorf("--status-url alt: status URL %q", h.StatusURL)
	}
	// ops wait on it reads the older shape (result fields at the top level).
	var id struct {
		RequestID string `json:"request_id"`
	}
	_ = decodeOne(r.stdout, &id)
	mustContain(t, "legacy async shape", client.ok("ops", "wait", id.RequestID).stdout, "served", "running")

	_ = p.cmd.Process.Signal(interrupt)
	if r := p.wait(t, 10*time.Second); r.code != 0 {
		t.Errorf("serve after SIGINT: %s", r)
	}
}

// The first-run demo: the embedded local API, in process, no server.
func TestLocalAPIDemo(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_LOCAL_SPEED"] = "20"
	r := w.ok("--api-url", "local", "pg", "create", "--name", "demo", "--playspec", "web", "--marquee", "local")
	// The suggested next command talks to the same API when pasted.
	mustContain(t, "create hint", r.stderr, "Next: fibe --api-url local pg rollout demo")
	r = w.ok("--api-url", "local", "pg", "rollout", "demo")
	mustContain(t, "rollout", r.stdout, "demo", "running")
	mustContain(t, "rollout notice", r.stderr, "resume with: fibe --api-url local ops wait req_")
	// State persists between invocations.
	mustContain(t, "list", w.ok("--api-url", "local", "pg", "list").stdout, "demo", "running")
	// A stored key for the local API is used too.
	r = w.runIn(localapi.DefaultAPIKey+"\n", "--api-url", "local", "auth", "login", "--with-token")
	if r.code != 0 {
		t.Fatalf("login to local: %s", r)
	}
}

// A FIBE_API_KEY exported for the real API does not lock the user out of
// the local sandbox, and the key is not written into the local state file.
func TestLocalAPIAcceptsAnExportedKey(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	const realKey = "fibe_live_do_not_store_me_0123456789"
	w.env["FIBE_API_KEY"] = realKey
	w.env["FIBE_LOCAL_SPEED"] = "20"
	r := w.ok("--api-url", "local", "pg", "create", "--name", "mine", "--playspec", "web")
	mustContain(t, "create", r.stdout, "mine")
	state, err := os.ReadFile(filepath.Join(w.home, "state", "fibe", "local", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(state), realKey) {
		t.Fatal("the API key was written into the local state file")
	}
}
