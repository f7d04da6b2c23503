package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/localapi"
)

// A bad setting, from a flag, the environment or the config file, is one
// line on stderr naming the setting and where the value came from, exit 2,
// and nothing is sent: whatever the command.
func TestBadSettingIsOneUsageLine(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	for _, c := range []struct {
		args []string
		env  map[string]string
		file string
		want string
	}{
		{[]string{"pg", "list", "--timeout", "soon"}, nil, "", `timeout (from flag --timeout): invalid duration "soon"`},
		{[]string{"pg", "rollout", "demo", "--wait-timeout", "0s"}, nil, "", "wait_timeout (from flag --wait-timeout): 0s must be positive"},
		{[]string{"pg", "list", "--max-retries=-2"}, nil, "", "max_retries (from flag --max-retries): -2 is out of range (0 to 100)"},
		{[]string{"pg", "list", "--debug=perhaps"}, nil, "", `debug (from flag --debug): invalid boolean "perhaps"`},
		{[]string{"mq", "list"}, map[string]string{"FIBE_POLL_INTERVAL": "often"}, "", `poll_interval (from env FIBE_POLL_INTERVAL): invalid duration "often"`},
		{[]string{"pg", "create", "--name", "x", "--playspec", "web"}, map[string]string{"FIBE_JOURNAL_WINDOW": "48h"}, "", "journal_window (from env FIBE_JOURNAL_WINDOW): 48h0m0s is out of range (0s to 24h)"},
		{[]string{"pg", "list"}, map[string]string{"FIBE_STATE_STORE": "memcache://fleet:hunter2@127.0.0.1:11211"}, "", `state_store (from env FIBE_STATE_STORE): invalid state store URL "memcache://****@127.0.0.1:11211"`},
		{[]string{"version"}, map[string]string{"FIBE_LOCAL_SPEED": "fast"}, "", `local_speed (from env FIBE_LOCAL_SPEED): invalid number "fast"`},
		{[]string{"breaker", "status"}, nil, "timeout: 1 hour\n", `timeout (from config file): invalid duration "1 hour"`},
		{[]string{"--profile", "ci", "pg", "list"}, nil, "profiles:\n  ci:\n    max_retries: lots\n", `max_retries (from profile ci): invalid integer "lots"`},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			u := *w
			u.t = t
			u.env = map[string]string{}
			for k, v := range w.env {
				u.env[k] = v
			}
			for k, v := range c.env {
				u.env[k] = v
			}
			u.home = t.TempDir()
			if c.file != "" {
				dir := filepath.Join(u.home, "config", "fibe")
				if err := os.MkdirAll(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(c.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			before := total(w.server.Stats())
			r := u.run(c.args...)
			if r.code != 2 {
				t.Fatalf("want exit 2: %s", r)
			}
			if want := "Error: " + c.want; !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("want one line starting %q:\n%s", want, r.stderr)
			}
			if strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "fleet") {
				t.Errorf("the store's credentials reached stderr:\n%s", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout: %q", r.stdout)
			}
			if after := total(w.server.Stats()); after != before {
				t.Errorf("%d requests were sent", after-before)
			}
		})
	}
}

// config list shows every setting of the table with its source, secrets
// masked; --debug says the same on stderr.
func TestConfigListShowsEverySetting(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_STATE_STORE"] = "redis://fleet:hunter2@127.0.0.1:6379/3"
	w.env["FIBE_API_KEY"] = "fibe_live_0123456789abcdef"
	w.env["FIBE_LOCAL_SPEED"] = "20"
	w.ok("config", "set", "journal_window", "30m")

	var list []struct{ Key, Value, Source, Env string }
	r := w.jsonOf(&list, "config", "list", "--timeout", "45s")
	if len(list) != len(config.Settings) {
		t.Fatalf("%d settings listed, the table has %d", len(list), len(config.Settings))
	}
	got := map[string]string{}
	for i, v := range list {
		if v.Key != config.Settings[i].Key {
			t.Errorf("row %d: %s, want %s", i, v.Key, config.Settings[i].Key)
		}
		got[v.Key] = v.Value + " | " + v.Source
	}
	for key, want := range map[string]string{
		"timeout":        "45s | flag --timeout",
		"journal_window": "30m0s | config file",
		"state_store":    "redis://****@127.0.0.1:6379/3 | env FIBE_STATE_STORE",
		"api_key":        "fibe_****cdef | env FIBE_API_KEY",
		"local_speed":    "20 | env FIBE_LOCAL_SPEED",
		"max_retries":    "3 | default",
		"wait_timeout":   "5m0s | default",
	} {
		if got[key] != want {
			t.Errorf("%s: %q, want %q", key, got[key], want)
		}
	}
	for _, secret := range []string{"hunter2", "fleet", "0123456789ab"} {
		if strings.Contains(r.stdout+r.stderr, secret) {
			t.Errorf("config list shows %q:\n%s", secret, r)
		}
	}

	r = w.ok("config", "list")
	mustContain(t, "config list", r.stdout, "state_store", "redis://****@127.0.0.1:6379/3", "env FIBE_STATE_STORE", "journal_window", "local_async_create")

	r = w.ok("--debug", "--max-retries", "1", "config", "get", "max_retries")
	mustContain(t, "--debug", r.stderr, "[debug] setting max_retries=1 (flag --max-retries)",
		"[debug] setting state_store=redis://****@127.0.0.1:6379/3 (env FIBE_STATE_STORE)",
		"[debug] setting journal_window=30m0s (config file)")
	if strings.Contains(r.stderr, "hunter2") || strings.Contains(r.stderr, "0123456789ab") {
		t.Errorf("--debug shows a secret:\n%s", r.stderr)
	}

	if r := w.run("config", "set", "api_key", "fibe_x"); r.code != 2 || !strings.Contains(r.stderr, "fibe auth login") {
		t.Errorf("config set api_key: %s", r)
	}
}

// FIBE_MCP_TOKEN, read through the settings table, is the token of
// `fibe mcp serve --http`; it is not printed.
func TestMCPTokenFromTheEnvironment(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.env["FIBE_MCP_TOKEN"] = "env-token-0123456789"
	p := w.start("mcp", "serve", "--http", "127.0.0.1:0")
	p.waitFor(t, 10*time.Second, "the listening line", func(out, _ string) bool { return strings.Contains(out, "listening on ") })
	out, _ := p.output()
	url := regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(out)[1]
	if strings.Contains(out, "Token:") || strings.Contains(out, "env-token") {
		t.Errorf("a token given in the environment is printed:\n%s", out)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for token, want := range map[string]int{"env-token-0123456789": 200, "other": 401} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Bearer %s: status %d, want %d", token, resp.StatusCode, want)
		}
	}
}

// A bad value in the config file stops every command but `config set`,
// which repairs it; help still shows.
func TestConfigSetRepairsABadFile(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.ok("config", "set", "timeout", "45s")
	file := filepath.Join(w.home, "config", "fibe", "config.yaml")
	if err := os.WriteFile(file, []byte("timeout: 45 seconds\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := w.run("config", "get", "timeout"); r.code != 2 || !strings.Contains(r.stderr, "timeout (from config file)") {
		t.Fatalf("bad file: %s", r)
	}
	if r := w.ok("help"); !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("help: %s", r)
	}
	w.ok("config", "set", "timeout", "50s")
	var v struct{ Value, Source string }
	w.jsonOf(&v, "config", "get", "timeout")
	if v.Value != "50s" || v.Source != "config file" {
		t.Errorf("after the repair: %+v", v)
	}
	if r := w.run("--profile", "bad name", "config", "set", "timeout", "1s"); r.code != 2 || !strings.Contains(r.stderr, `invalid profile name "bad name"`) {
		t.Errorf("bad profile: %s", r)
	}
}
