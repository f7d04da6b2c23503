package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// isolate points every directory at a fresh temp dir and clears FIBE_*.
func isolate(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("FIBE_NO_KEYRING", "1")
	for _, s := range Settings {
		if s.Env != "" {
			t.Setenv(s.Env, "")
		}
	}
	for _, v := range []string{"FIBE_DOMAIN", "FIBE_PROFILE", "FIBE_DEBUG"} {
		t.Setenv(v, "")
	}
	return dir
}

func flags(t *testing.T, args ...string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.String("api-url", DefaultAPIURL, "")
	fs.String("profile", DefaultProfile, "")
	fs.Duration("timeout", 0, "")
	fs.Int("max-retries", 3, "")
	fs.Bool("debug", false, "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fs
}

func writeConfig(t *testing.T, body string) {
	file, err := ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestDefaults(t *testing.T) {
	isolate(t)
	c, err := Load(flags(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIURL != DefaultAPIURL || c.Timeout.String() != "30s" || c.MaxRetries != 3 ||
		c.WaitTimeout.String() != "5m0s" || c.PollInterval.String() != "1s" || c.Profile != "default" {
		t.Errorf("defaults: %+v", c)
	}
	for _, v := range c.Values() {
		if v.Source != "default" {
			t.Errorf("%s from %s", v.Key, v.Source)
		}
	}
}

func TestPrecedence(t *testing.T) {
	isolate(t)
	writeConfig(t, `
api_url: http://127.0.0.1:7000
timeout: 40s
max_retries: 5
profiles:
  ci:
    timeout: 50s
    trusted_hosts: [Logs.Example.test, cdn.example.test]
`)
	c, err := Load(flags(t))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIURL != "http://127.0.0.1:7000" || c.Timeout.String() != "40s" || c.MaxRetries != 5 {
		t.Errorf("file: %+v", c)
	}

	c, err = Load(flags(t, "--profile", "ci"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := c.Get("timeout"); v.Value != "50s" || v.Source != "profile ci" {
		t.Errorf("profile over file: %+v", v)
	}
	if strings.Join(c.TrustedHosts, ",") != "logs.example.test,cdn.example.test" {
		t.Errorf("trusted hosts: %v", c.TrustedHosts)
	}
	if v, _ := c.Get("api_url"); v.Source != "config file" {
		t.Errorf("a key the profile lacks comes from the file: %+v", v)
	}

	t.Setenv("FIBE_TIMEOUT", "60")
	t.Setenv("FIBE_DOMAIN", "fibe.example.test")
	c, err = Load(flags(t, "--profile", "ci"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout.String() != "1m0s" || c.APIURL != "https://fibe.example.test" {
		t.Errorf("env over profile: %v %s", c.Timeout, c.APIURL)
	}

	t.Setenv("FIBE_API_URL", "http://127.0.0.1:7001/")
	c, err = Load(flags(t, "--profile", "ci", "--timeout", "70s"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout.String() != "1m10s" || c.APIURL != "http://127.0.0.1:7001" {
		t.Errorf("flag over env, FIBE_API_URL over FIBE_DOMAIN: %v %s", c.Timeout, c.APIURL)
	}
	if v, _ := c.Get("timeout"); v.Source != "flag --timeout" {
		t.Errorf("source: %+v", v)
	}
}

func TestInvalidValues(t *testing.T) {
	isolate(t)
	for env, val := range map[string]string{"FIBE_TIMEOUT": "soon", "FIBE_MAX_RETRIES": "-1", "FIBE_API_URL": "ftp://x"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, val)
			_, err := Load(flags(t))
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Errorf("%s=%s: %v", env, val, err)
			}
		})
	}
	writeConfig(t, "api_url: [unclosed")
	var inv *InvalidError
	if _, err := Load(flags(t)); !errors.As(err, &inv) {
		t.Errorf("bad YAML: %v", err)
	}
}

func TestLocalAPIURL(t *testing.T) {
	isolate(t)
	c, err := Load(flags(t, "--api-url", "local"))
	if err != nil || !c.Local() {
		t.Fatalf("local: %v %+v", err, c)
	}
}

func TestSetWritesProfiles(t *testing.T) {
	dir := isolate(t)
	if _, err := Set("default", "timeout", "45s"); err != nil {
		t.Fatal(err)
	}
	if _, err := Set("staging", "api_url", "staging.example.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := Set("staging", "max_retries", "1"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "config", "fibe", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"timeout: 45s", "staging:", "api_url: https://staging.example.test", "max_retries: 1"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, data)
		}
	}
	c, err := Load(flags(t, "--profile", "staging"))
	if err != nil {
		t.Fatal(err)
	}
	if c.APIURL != "https://staging.example.test" || c.Timeout.String() != "45s" || c.MaxRetries != 1 {
		t.Errorf("loaded: %+v", c)
	}
	if _, err := Set("default", "timeout", ""); err != nil {
		t.Fatal(err)
	}
	if c, _ := Load(flags(t)); c.Timeout.String() != "30s" {
		t.Errorf("an empty value removes the key: %v", c.Timeout)
	}
	var inv *InvalidError
	if _, err := Set("default", "nope", "1"); !errors.As(err, &inv) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := Set("default", "timeout", "-3s"); !errors.As(err, &inv) {
		t.Errorf("negative timeout: %v", err)
	}
	if _, err := Set("bad profile!", "timeout", "3s"); !errors.As(err, &inv) {
		t.Errorf("bad profile name: %v", err)
	}
}
