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
	for _, s := range Settings {
		for _, a := range s.Aliases {
			t.Setenv(a, "")
		}
	}
	return dir
}

// flags is a command's flag set as the command line builds it: the global
// settings, the wait flags and a bound --token, parsed from args.
func flags(t *testing.T, args ...string) *pflag.FlagSet {
	t.Helper()
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	AddGlobalFlags(fs)
	AddFlags(fs, "wait_timeout", "poll_interval")
	fs.String("token", "", "")
	BindFlag(fs, "mcp_token")
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
