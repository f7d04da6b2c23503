package config

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/fibegg/fibe/internal/reliability"
)

// Every row parses its own default, and the reliability defaults are the
// ones internal/reliability defines.
func TestTableDefaults(t *testing.T) {
	seen := map[string]bool{}
	flagsSeen := map[string]string{}
	envSeen := map[string]string{}
	for _, s := range Settings {
		if seen[s.Key] {
			t.Errorf("%s: listed twice", s.Key)
		}
		seen[s.Key] = true
		if s.Flag != "" && s.Scope == "" {
			if other := flagsSeen[s.Flag]; other != "" {
				t.Errorf("--%s: global flag of %s and %s", s.Flag, other, s.Key)
			}
			flagsSeen[s.Flag] = s.Key
		}
		for _, e := range append([]string{s.Env}, s.Aliases...) {
			if other := envSeen[e]; e != "" && other != "" {
				t.Errorf("%s: variable of %s and %s", e, other, s.Key)
			}
			envSeen[e] = s.Key
		}
		if s.Help == "" {
			t.Errorf("%s: no help", s.Key)
		}
		if want := EnvPrefix + "_" + strings.ToUpper(s.Key); s.Env != "" && s.Env != want {
			t.Errorf("%s: variable %s, want %s", s.Key, s.Env, want)
		}
		if _, _, err := s.Parse(s.Default); err != nil {
			t.Errorf("%s: default %q does not parse: %v", s.Key, s.Default, err)
		}
	}

	isolate(t)
	c, err := Load(flags(t))
	if err != nil {
		t.Fatal(err)
	}
	p := reliability.DefaultPolicy()
	if c.Timeout != p.AttemptTimeout || c.MaxRetries != p.MaxRetries || c.WaitTimeout != p.PollTimeout ||
		c.PollInterval != p.PollInterval || c.JournalWindow != reliability.DefaultJournalWindow {
		t.Errorf("reliability defaults: %+v, policy %+v", c, p)
	}
	if c.APIURL != DefaultAPIURL || c.Profile != DefaultProfile || c.StateStore != "" || c.Debug || c.APIKey != "" {
		t.Errorf("defaults: %+v", c)
	}
	for _, v := range c.Values() {
		if v.Source != "default" {
			t.Errorf("%s from %s", v.Key, v.Source)
		}
	}

	// The flags carry the table's defaults, so help shows them.
	fs := flags(t)
	for flag, want := range map[string]string{"timeout": "30s", "max-retries": "3", "wait-timeout": "5m0s", "poll-interval": "1s", "api-url": DefaultAPIURL} {
		if f := fs.Lookup(flag); f == nil || f.DefValue != want {
			t.Errorf("--%s default: %+v, want %s", flag, f, want)
		}
	}
	if f := fs.Lookup("timeout"); f.Value.Type() != "duration" || !strings.Contains(f.Usage, "env FIBE_TIMEOUT") {
		t.Errorf("--timeout: type %s, usage %q", f.Value.Type(), f.Usage)
	}
}

// One setting of each kind, through every layer: each layer wins over the
// ones below it, and says so.
func TestPrecedenceTable(t *testing.T) {
	type layer struct{ flag, env, profile, file string }
	for _, c := range []struct {
		key     string
		layers  layer
		typed   func(*Config) any
		byLayer [5]any // flag, env, profile, file, default
	}{
		{"timeout", layer{"70s", "60", "50s", "40s"}, func(c *Config) any { return c.Timeout },
			[5]any{70 * time.Second, 60 * time.Second, 50 * time.Second, 40 * time.Second, 30 * time.Second}},
		{"max_retries", layer{"7", "6", "5", "4"}, func(c *Config) any { return c.MaxRetries },
			[5]any{7, 6, 5, 4, 3}},
		{"api_url", layer{"http://127.0.0.1:7004/", "127.0.0.3", "local", "http://127.0.0.1:7001"}, func(c *Config) any { return c.APIURL },
			[5]any{"http://127.0.0.1:7004", "https://127.0.0.3", LocalAPI, "http://127.0.0.1:7001", DefaultAPIURL}},
		{"state_store", layer{"redis://127.0.0.1:6379/4", "redis://127.0.0.1:6379/3", "file", "redis://127.0.0.1:6379/1"}, func(c *Config) any { return c.StateStore },
			[5]any{"redis://127.0.0.1:6379/4", "redis://127.0.0.1:6379/3", "", "redis://127.0.0.1:6379/1", ""}},
		{"poll_interval", layer{"250ms", "2s", "3s", "4s"}, func(c *Config) any { return c.PollInterval },
			[5]any{250 * time.Millisecond, 2 * time.Second, 3 * time.Second, 4 * time.Second, time.Second}},
		{"trusted_hosts", layer{"", "A.test", "b.test,c.test", "d.test"}, func(c *Config) any { return strings.Join(c.TrustedHosts, ",") },
			[5]any{nil, "a.test", "b.test,c.test", "d.test", ""}},
		{"breaker_wait", layer{"45s", "1m", "0", "2m"}, func(c *Config) any { return c.BreakerWait },
			[5]any{45 * time.Second, time.Minute, time.Duration(0), 2 * time.Minute, time.Duration(0)}},
		{"journal_window", layer{"", "0", "1h", "30m"}, func(c *Config) any { return c.JournalWindow },
			[5]any{nil, time.Duration(0), time.Hour, 30 * time.Minute, 15 * time.Minute}},
		{"debug", layer{"true", "1", "", ""}, func(c *Config) any { return c.Debug },
			[5]any{true, true, nil, nil, false}},
		{"mcp_token", layer{"flag-token", "env-token", "", ""}, func(c *Config) any { return c.MCPToken },
			[5]any{"flag-token", "env-token", nil, nil, ""}},
	} {
		t.Run(c.key, func(t *testing.T) {
			s, _ := Lookup(c.key)
			sources := [5]string{"flag --" + s.Flag, "env " + s.Env, "profile ci", "config file", "default"}
			// Peel the layers off one by one, from the flag down to the default.
			for i := 0; i < 5; i++ {
				isolate(t)
				var file, args []string
				if i <= 3 && c.layers.file != "" {
					file = append(file, c.key+": "+yamlQuote(c.layers.file))
				}
				if i <= 2 && c.layers.profile != "" {
					file = append(file, "profiles:", "  ci:", "    "+c.key+": "+yamlQuote(c.layers.profile))
				}
				writeConfig(t, strings.Join(file, "\n")+"\n")
				if i <= 1 && c.layers.env != "" {
					t.Setenv(s.Env, c.layers.env)
				}
				if i == 0 && c.layers.flag != "" {
					args = append(args, "--"+s.Flag+"="+c.layers.flag)
				}
				if c.byLayer[i] == nil {
					continue // this setting has no such layer
				}
				cfg, err := Load(flags(t, append(args, "--profile", "ci")...))
				if err != nil {
					t.Fatalf("layer %s: %v", sources[i], err)
				}
				if got := c.typed(cfg); got != c.byLayer[i] {
					t.Errorf("layer %s: got %#v, want %#v", sources[i], got, c.byLayer[i])
				}
				if v, _ := cfg.Get(c.key); v.Source != sources[i] {
					t.Errorf("layer %s: source %q", sources[i], v.Source)
				}
			}
		})
	}
}

func yamlQuote(s string) string { return `"` + s + `"` }

// A bad value is one line naming the setting and where it came from,
// whichever layer it is in, and never repeats a secret.
func TestBadValuesNameSettingAndSource(t *testing.T) {
	for _, c := range []struct {
		name    string
		args    []string
		env     map[string]string
		file    string
		want    string // in the message
		private string // must not be in it
	}{
		{"flag duration", []string{"--timeout", "soon"}, nil, "", `timeout (from flag --timeout): invalid duration "soon"`, ""},
		{"flag zero duration", []string{"--timeout", "0"}, nil, "", "timeout (from flag --timeout): 0s must be positive", ""},
		{"flag int", []string{"--max-retries", "many"}, nil, "", `max_retries (from flag --max-retries): invalid integer "many"`, ""},
		{"flag negative int", []string{"--max-retries=-1"}, nil, "", "max_retries (from flag --max-retries): -1 is out of range (0 to 100)", ""},
		{"flag bool", []string{"--debug=maybe"}, nil, "", `debug (from flag --debug): invalid boolean "maybe"`, ""},
		{"flag url", []string{"--api-url", "ftp://x"}, nil, "", "api_url (from flag --api-url): ", ""},
		{"flag wait", []string{"--wait-timeout", "-5s"}, nil, "", "wait_timeout (from flag --wait-timeout): -5s must be positive", ""},
		{"flag profile", []string{"--profile", "a b"}, nil, "", `invalid profile name "a b"`, ""},
		{"env duration", nil, map[string]string{"FIBE_POLL_INTERVAL": "often"}, "", `poll_interval (from env FIBE_POLL_INTERVAL): invalid duration "often"`, ""},
		{"env alias", nil, map[string]string{"FIBE_DOMAIN": "bad host/x y"}, "", "api_url (from env FIBE_DOMAIN): ", ""},
		{"env journal too long", nil, map[string]string{"FIBE_JOURNAL_WINDOW": "25h"}, "", "journal_window (from env FIBE_JOURNAL_WINDOW): 25h0m0s is out of range (0s to 24h)", ""},
		{"env journal negative", nil, map[string]string{"FIBE_JOURNAL_WINDOW": "-1m"}, "", "journal_window (from env FIBE_JOURNAL_WINDOW): ", ""},
		{"env float", nil, map[string]string{"FIBE_LOCAL_SPEED": "fast"}, "", `local_speed (from env FIBE_LOCAL_SPEED): invalid number "fast"`, ""},
		{"env float zero", nil, map[string]string{"FIBE_LOCAL_SPEED": "0"}, "", "local_speed (from env FIBE_LOCAL_SPEED): 0 must be positive", ""},
		{"env seed", nil, map[string]string{"FIBE_LOCAL_SEED": "1.5"}, "", `local_seed (from env FIBE_LOCAL_SEED): invalid integer "1.5"`, ""},
		{"env bool", nil, map[string]string{"FIBE_LOCAL_ASYNC_CREATE": "maybe"}, "", "local_async_create (from env FIBE_LOCAL_ASYNC_CREATE)", ""},
		{"env no keyring", nil, map[string]string{"FIBE_NO_KEYRING": "perhaps"}, "", "no_keyring (from env FIBE_NO_KEYRING)", ""},
		{"env hosts", nil, map[string]string{"FIBE_TRUSTED_HOSTS": "a.test,http://b.test/"}, "", `trusted_hosts (from env FIBE_TRUSTED_HOSTS): invalid host "http://b.test/"`, ""},
		{"env store scheme", nil, map[string]string{"FIBE_STATE_STORE": "http://admin:hunter2@127.0.0.1:6379/0"}, "", "state_store (from env FIBE_STATE_STORE): invalid state store URL \"http://****@127.0.0.1:6379/0\"", "hunter2"},
		{"env store db", nil, map[string]string{"FIBE_STATE_STORE": "redis://:hunter2@127.0.0.1:6379/db"}, "", "the path must be a database number", "hunter2"},
		{"env token", nil, map[string]string{"FIBE_MCP_TOKEN": "s3cr3t\x01"}, "", "mcp_token (from env FIBE_MCP_TOKEN): contains a control character", "s3cr3t"},
		{"env api key", nil, map[string]string{"FIBE_API_KEY": "fibe_s3cr3t\x1b[0m"}, "", "api_key (from env FIBE_API_KEY)", "s3cr3t"},
		{"file duration", nil, nil, "timeout: later\n", `timeout (from config file): invalid duration "later"`, ""},
		{"file int", nil, nil, "max_retries: 101\n", "max_retries (from config file): 101 is out of range", ""},
		{"file store", nil, nil, "state_store: redis://u:hunter2@/0\n", "state_store (from config file): invalid state store URL \"redis://****@/0\": no host", "hunter2"},
		{"profile duration", []string{"--profile", "ci"}, nil, "profiles:\n  ci:\n    wait_timeout: forever\n", `wait_timeout (from profile ci): invalid duration "forever"`, ""},
		{"profile journal", nil, map[string]string{"FIBE_PROFILE": "ci"}, "profiles:\n  ci:\n    journal_window: 48h\n", "journal_window (from profile ci): 48h0m0s is out of range", ""},
		{"bad yaml", nil, nil, "timeout: [unclosed\n", "is not valid YAML", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			isolate(t)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			if c.file != "" {
				writeConfig(t, c.file)
			}
			_, err := Load(flags(t, c.args...))
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("want an InvalidError, got %v", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) {
				t.Errorf("message %q lacks %q", msg, c.want)
			}
			if c.private != "" && strings.Contains(msg, c.private) {
				t.Errorf("message %q repeats the secret", msg)
			}
			if strings.Contains(msg, "\n") && c.name != "bad yaml" {
				t.Errorf("message is not one line: %q", msg)
			}
		})
	}
}

func TestSecretsAreMasked(t *testing.T) {
	isolate(t)
	t.Setenv("FIBE_STATE_STORE", "redis://fleet:hunter2@127.0.0.1:6379/2")
	t.Setenv("FIBE_API_KEY", "fibe_live_0123456789abcdef")
	c, err := Load(flags(t, "--token", "tok-0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	if c.StateStore != "redis://fleet:hunter2@127.0.0.1:6379/2" || c.APIKey != "fibe_live_0123456789abcdef" ||
		c.APIKeySource != SourceEnv || c.MCPToken != "tok-0123456789" {
		t.Errorf("typed values must be whole: %+v", c)
	}
	for _, v := range c.Values() {
		for _, secret := range []string{"hunter2", "fleet", "0123456789abcdef", "tok-0123456789"} {
			if strings.Contains(v.Value, secret) {
				t.Errorf("%s shows %q: %q", v.Key, secret, v.Value)
			}
		}
	}
	if v, _ := c.Get("state_store"); v.Value != "redis://****@127.0.0.1:6379/2" || v.Source != "env FIBE_STATE_STORE" {
		t.Errorf("state_store: %+v", v)
	}
	if v, _ := c.Get("mcp_token"); v.Source != "flag --token" {
		t.Errorf("mcp_token: %+v", v)
	}
}

// A flag is read only for the setting it is bound to: another command's
// --token is not the MCP token.
func TestUnboundFlagIsNotASetting(t *testing.T) {
	isolate(t)
	fs := pflag.NewFlagSet("other", pflag.ContinueOnError)
	fs.String("token", "", "")
	fs.String("timeout", "", "")
	if err := fs.Parse([]string{"--token", "x", "--timeout", "nonsense"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(fs)
	if err != nil {
		t.Fatal(err)
	}
	if c.MCPToken != "" || c.Timeout != reliability.DefaultAttemptTimeout {
		t.Errorf("unbound flags were read: %+v", c)
	}
}

func TestFromEnv(t *testing.T) {
	isolate(t)
	if v, err := FromEnv("local_speed"); err != nil || v.(float64) != 1 {
		t.Errorf("default speed: %v %v", v, err)
	}
	t.Setenv("FIBE_LOCAL_SPEED", "12.5")
	t.Setenv("FIBE_NO_KEYRING", "yes")
	if v, err := FromEnv("local_speed"); err != nil || v.(float64) != 12.5 {
		t.Errorf("speed: %v %v", v, err)
	}
	if v, err := FromEnv("no_keyring"); err != nil || v != true {
		t.Errorf("no_keyring: %v %v", v, err)
	}
	t.Setenv("FIBE_LOCAL_SEED", "x")
	var inv *InvalidError
	if _, err := FromEnv("local_seed"); !errors.As(err, &inv) || !strings.Contains(err.Error(), "env FIBE_LOCAL_SEED") {
		t.Errorf("bad seed: %v", err)
	}
}

func TestSetRefusesWhatTheFileCannotHold(t *testing.T) {
	isolate(t)
	var inv *InvalidError
	for key, hint := range map[string]string{"api_key": "fibe auth login", "debug": "--debug, FIBE_DEBUG", "local_speed": "FIBE_LOCAL_SPEED", "profile": "--profile"} {
		if _, err := Set(DefaultProfile, key, "1"); !errors.As(err, &inv) || !strings.Contains(err.Error(), hint) {
			t.Errorf("%s: %v", key, err)
		}
	}
	if _, err := Set(DefaultProfile, "journal_window", "2d"); !errors.As(err, &inv) {
		t.Errorf("bad journal_window: %v", err)
	}
	if _, err := Set(DefaultProfile, "journal_window", "1h"); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(DefaultProfile, "trusted_hosts", "a.test, B.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(DefaultProfile, "state_store", "redis://127.0.0.1:6379/1"); err != nil {
		t.Fatal(err)
	}
	c, err := Load(flags(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.JournalWindow != time.Hour || strings.Join(c.TrustedHosts, ",") != "a.test,b.test" || c.StateStore != "redis://127.0.0.1:6379/1" {
		t.Errorf("loaded: %+v", c)
	}
	// An empty key in the file is no value: the default applies.
	writeConfig(t, "timeout:\nprofiles:\n  ci:\n    max_retries:\n")
	if c, err := Load(flags(t, "--profile", "ci")); err != nil || c.Timeout != reliability.DefaultAttemptTimeout || c.MaxRetries != reliability.DefaultMaxRetries {
		t.Errorf("empty keys: %+v %v", c, err)
	}
	if _, err := Set(DefaultProfile, "state_store", "file"); err != nil {
		t.Fatal(err)
	}
	if c, _ := Load(flags(t)); c.StateStore != "" {
		t.Errorf("state_store file is the default: %q", c.StateStore)
	}
}

// BenchmarkLoad is what every invocation pays to resolve its settings: a
// small config file with a profile, a few variables and flags.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("XDG_CONFIG_HOME", dir)
	b.Setenv("FIBE_TIMEOUT", "45s")
	b.Setenv("FIBE_STATE_STORE", "")
	if err := os.MkdirAll(dir+"/fibe", 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(dir+"/fibe/config.yaml", []byte("max_retries: 5\nprofiles:\n  ci:\n    trusted_hosts: [a.test]\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	fs := pflag.NewFlagSet("bench", pflag.ContinueOnError)
	AddGlobalFlags(fs)
	AddFlags(fs, "wait_timeout", "poll_interval")
	if err := fs.Parse([]string{"--profile", "ci", "--wait-timeout", "2m"}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(fs); err != nil {
			b.Fatal(err)
		}
	}
}

// A state store URL without a password (as fibe mcp install writes it)
// takes the password of FIBE_STATE_STORE when that names the same store,
// and only then.
func TestStateStorePasswordFromTheEnvironment(t *testing.T) {
	for _, c := range []struct{ flag, env, want string }{
		{"redis://fleet@db.internal:6390/0", "redis://fleet:pw-1@db.internal:6390/0", "redis://fleet:pw-1@db.internal:6390/0"},
		{"redis://db.internal:6390/0", "redis://:pw-1@db.internal:6390/0", "redis://:pw-1@db.internal:6390/0"},
		{"redis://fleet@db.internal:6390/0", "redis://fleet:pw-1@other:6390/0", "redis://fleet@db.internal:6390/0"},
		{"redis://fleet@db.internal:6390/1", "redis://fleet:pw-1@db.internal:6390/0", "redis://fleet@db.internal:6390/1"},
		{"redis://fleet:own@db.internal:6390/0", "redis://fleet:pw-1@db.internal:6390/0", "redis://fleet:own@db.internal:6390/0"},
	} {
		t.Setenv("FIBE_STATE_STORE", c.env)
		if got := withEnvPassword(c.flag, "flag --state-store"); got != c.want {
			t.Errorf("flag %s, env %s: %s, want %s", c.flag, c.env, got, c.want)
		}
	}
}
