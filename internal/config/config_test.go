package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// FIBE_LOCAL_SPEED divides the default poll interval of the embedded API
// (README "Try it locally": every simulated duration ÷ speed), and nothing
// else: a poll interval the user gave, or a real API, keeps its value.
func TestLocalSpeedScalesTheDefaultPollInterval(t *testing.T) {
	isolate(t)
	t.Setenv("FIBE_LOCAL_SPEED", "10")
	c, err := Load(flags(t, "--api-url", "local"))
	if err != nil {
		t.Fatal(err)
	}
	if c.PollInterval != 100*time.Millisecond {
		t.Errorf("local at speed 10: poll interval %s, want 100ms", c.PollInterval)
	}
	if v, _ := c.Get("poll_interval"); v.Value != "100ms" || !strings.Contains(v.Source, "FIBE_LOCAL_SPEED") {
		t.Errorf("config list shows %+v", v)
	}
	c, err = Load(flags(t, "--api-url", "local", "--poll-interval", "2s"))
	if err != nil || c.PollInterval != 2*time.Second {
		t.Errorf("--poll-interval 2s at speed 10: %v %v", c.PollInterval, err)
	}
	c, err = Load(flags(t, "--api-url", "https://fibe.example.test"))
	if err != nil || c.PollInterval != time.Second {
		t.Errorf("a real API at FIBE_LOCAL_SPEED=10: %v %v", c.PollInterval, err)
	}
}

// The README's configuration table is one table with one row per setting.
func TestREADMEConfigTableListsEachSettingOnce(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "| flag | env | config key | default |")
	if !ok {
		t.Fatal("README: no configuration table")
	}
	var rows []string
	blank := false // a blank line seen after the header
	for _, line := range strings.Split(rest, "\n")[1:] {
		if strings.TrimSpace(line) == "" {
			blank = true
			continue
		}
		if !strings.HasPrefix(line, "|") {
			break
		}
		if blank {
			t.Errorf("README config table is split by a blank line before %s", line)
		}
		rows = append(rows, line)
	}
	table := strings.Join(rows, "\n")
	for _, s := range Settings {
		name := s.Env
		if name == "" {
			continue
		}
		if n := strings.Count(table, "`"+name+"`"); n != 1 {
			t.Errorf("README config table: %s in %d rows, want 1", name, n)
		}
	}
}
