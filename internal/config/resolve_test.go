package config

import (
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/fibegg/fibe/internal/reliability"
)

// The file layer holds only what config.yaml may: an API key, a profile
// or a flag of the environment written into the file by hand is not read,
// at the top level or in the profile's section.
func TestFileHoldsOnlyFileKeys(t *testing.T) {
	isolate(t)
	writeConfig(t, strings.Join([]string{
		"api_key: fibe_from_the_file",
		"debug: true",
		"profile: other",
		"local_speed: 40",
		"timeout: 40s",
		"profiles:",
		"  ci:",
		"    debug: true",
		"    mcp_token: tok-from-the-file",
		"    no_keyring: true",
		"    max_retries: 9",
	}, "\n")+"\n")
	c, err := Load(flags(t, "--profile", "ci"))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIKey != "" || c.Debug || c.Profile != "ci" || c.MCPToken != "" || c.NoKeyring {
		t.Errorf("keys the file may not hold were read: %+v", c)
	}
	for _, key := range []string{"api_key", "debug", "local_speed", "mcp_token", "no_keyring"} {
		if v, _ := c.Get(key); v.Source != "default" {
			t.Errorf("%s from %s", key, v.Source)
		}
	}
	if c.Timeout.String() != "40s" || c.MaxRetries != 9 {
		t.Errorf("file keys: timeout %s, max_retries %d", c.Timeout, c.MaxRetries)
	}
}

// config set rewrites the file through its document: keys fibe does not
// know and other profiles stay, the file stays 0600, and removing a
// profile's last key removes the profile.
func TestSetKeepsTheRestOfTheFile(t *testing.T) {
	isolate(t)
	writeConfig(t, strings.Join([]string{
		"# a comment goes",
		"team_note: keep me",
		"timeout: 40s",
		"profiles:",
		"  ci:",
		"    max_retries: 9",
		"    extra:",
		"      nested: [1, 2]",
		"  prod:",
		"    api_url: https://prod.example.test",
	}, "\n")+"\n")
	file, err := Set("ci", "trusted_hosts", "a.test,b.test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Set(DefaultProfile, "max_retries", "2"); err != nil {
		t.Fatal(err)
	}
	if _, err := Set("prod", "api_url", ""); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(file)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config.yaml: %v, mode %v", err, st.Mode())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"team_note":   "keep me",
		"timeout":     "40s",
		"max_retries": 2,
		"profiles": map[string]any{
			"ci": map[string]any{
				"max_retries":   9,
				"extra":         map[string]any{"nested": []any{1, 2}},
				"trusted_hosts": []any{"a.test", "b.test"},
			},
		},
	}
	if got, exp := mustYAML(t, doc), mustYAML(t, want); got != exp {
		t.Errorf("config.yaml:\n%s\nwant:\n%s", got, exp)
	}
	c, err := Load(flags(t, "--profile", "ci"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.TrustedHosts, ",") != "a.test,b.test" || c.MaxRetries != 9 || c.Timeout.String() != "40s" {
		t.Errorf("loaded: %+v", c)
	}
	if v, _ := c.Get("trusted_hosts"); v.Source != "profile ci" {
		t.Errorf("trusted_hosts from %s", v.Source)
	}
}

func mustYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A list's flag adds up when repeated (mcp serve --allow-origin A
// --allow-origin B), and replaces the environment's list.
func TestRepeatedListFlagAddsUp(t *testing.T) {
	isolate(t)
	t.Setenv("FIBE_MCP_ALLOW_ORIGINS", "http://env.test")
	fs := flags(t)
	AddFlags(fs, "mcp_allow_origins")
	if err := fs.Parse([]string{"--allow-origin", "http://a.test", "--allow-origin", "http://b.test,http://c.test"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(fs)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.MCPOrigins, " "); got != "http://a.test http://b.test http://c.test" {
		t.Errorf("origins %q", got)
	}
	if v, _ := c.Get("mcp_allow_origins"); v.Source != "flag --allow-origin" {
		t.Errorf("source %q", v.Source)
	}
}

// Each Load has its own resolution: nothing of one invocation's flags,
// variables or file is left for the next.
func TestLoadsDoNotShareState(t *testing.T) {
	isolate(t)
	writeConfig(t, "timeout: 40s\n")
	t.Setenv("FIBE_MAX_RETRIES", "7")
	c, err := Load(flags(t, "--breaker-wait", "5s"))
	if err != nil || c.Timeout.String() != "40s" || c.MaxRetries != 7 || c.BreakerWait.String() != "5s" {
		t.Fatalf("first: %+v %v", c, err)
	}
	writeConfig(t, "")
	t.Setenv("FIBE_MAX_RETRIES", "")
	c, err = Load(flags(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != reliability.DefaultAttemptTimeout || c.MaxRetries != reliability.DefaultMaxRetries || c.BreakerWait != reliability.DefaultBreakerWait {
		t.Errorf("second kept the first's values: %+v", c)
	}
	for _, v := range c.Values() {
		if v.Source != "default" {
			t.Errorf("%s from %s", v.Key, v.Source)
		}
	}
}

// Viper matches the file's keys without regard to case: a profile named
// with capitals is written and read back under one section.
func TestProfileWithCapitals(t *testing.T) {
	isolate(t)
	if _, err := Set("Staging", "timeout", "41s"); err != nil {
		t.Fatal(err)
	}
	c, err := Load(flags(t, "--profile", "Staging"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Get("timeout"); c.Timeout.String() != "41s" || v.Source != "profile Staging" || c.Profile != "Staging" {
		t.Errorf("timeout %s from %s, profile %s", c.Timeout, v.Source, c.Profile)
	}
	if _, err := Set("Staging", "timeout", ""); err != nil {
		t.Fatal(err)
	}
	if c, err := Load(flags(t, "--profile", "Staging")); err != nil || c.Timeout != reliability.DefaultAttemptTimeout {
		t.Errorf("after removing: %v %v", c.Timeout, err)
	}
}
