package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// DefaultProfile is the profile used when none is named.
const DefaultProfile = "default"

// InvalidError is a configuration value that cannot be used: a bad flag,
// variable or config file entry. The command line reports it as a usage error.
type InvalidError struct{ msg string }

func (e *InvalidError) Error() string { return e.msg }

func invalidf(format string, args ...any) error {
	return &InvalidError{msg: fmt.Sprintf(format, args...)}
}

// Value is one resolved setting and where it came from.
type Value struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"` // "flag --x", "env FIBE_X", "config file", "profile NAME", "default"
}

// Config is the resolved configuration of one invocation.
type Config struct {
	Profile       string
	ProfileSource string
	File          string // path of config.yaml (it may not exist)

	APIURL       string // normalized; LocalAPI for the embedded API
	Timeout      time.Duration
	MaxRetries   int
	WaitTimeout  time.Duration
	PollInterval time.Duration
	TrustedHosts []string
	StateStore   string // "file", or a redis:// URL (may hold a password: never print it)
	Debug        bool

	values map[string]Value
}

// Local reports whether the embedded local API was selected.
func (c *Config) Local() bool { return c.APIURL == LocalAPI }

// Get returns one resolved setting.
func (c *Config) Get(key string) (Value, bool) {
	v, ok := c.values[key]
	return v, ok
}

// Values returns every setting in display order.
func (c *Config) Values() []Value {
	out := make([]Value, 0, len(Settings))
	for _, s := range Settings {
		out = append(out, c.values[s.Key])
	}
	return out
}

// Load resolves the configuration: flags (those in fs that were set), then
// the environment, then the config file's active profile, then its top
// level, then defaults. fs may be nil.
func Load(fs *pflag.FlagSet) (*Config, error) {
	file, err := ConfigFile()
	if err != nil {
		return nil, err
	}
	c := &Config{File: file, values: map[string]Value{}}

	c.Profile, c.ProfileSource = DefaultProfile, "default"
	if f := lookupFlag(fs, "profile"); f != nil && f.Changed {
		c.Profile, c.ProfileSource = f.Value.String(), "flag --profile"
	} else if p := os.Getenv("FIBE_PROFILE"); p != "" {
		c.Profile, c.ProfileSource = p, "env FIBE_PROFILE"
	}
	if err := validProfile(c.Profile); err != nil {
		return nil, err
	}

	raw, err := readFile(file)
	if err != nil {
		return nil, err
	}
	profile, _ := profileSection(raw, c.Profile)
	if c.Profile != DefaultProfile && profile == nil && c.ProfileSource != "default" {
		// Naming a profile that does not exist yet is fine for `auth login`
		// and `config set`; it simply has no values of its own.
		profile = map[string]any{}
	}

	v := viper.New()
	v.SetConfigType("yaml")
	if err := v.MergeConfigMap(withoutProfiles(raw)); err != nil {
		return nil, err
	}
	if len(profile) > 0 {
		if err := v.MergeConfigMap(profile); err != nil {
			return nil, err
		}
	}
	for _, s := range Settings {
		v.SetDefault(s.Key, s.Default)
		if s.Env != "" {
			names := []string{s.Key, s.Env}
			if s.Key == "api_url" {
				names = append(names, "FIBE_DOMAIN") // a host or a URL
			}
			if err := v.BindEnv(names...); err != nil {
				return nil, err
			}
		}
		if f := lookupFlag(fs, s.Flag); f != nil {
			if err := v.BindPFlag(s.Key, f); err != nil {
				return nil, err
			}
		}
	}

	for _, s := range Settings {
		rawValue := stringValue(v.Get(s.Key))
		source := c.sourceOf(s, fs, raw, profile)
		norm, err := s.normalize(rawValue)
		if err != nil && !(s.Key == "trusted_hosts" && rawValue == "") {
			return nil, invalidf("%s (from %s): %v", s.Key, source, err)
		}
		if s.Key == "state_store" {
			c.StateStore = norm
		}
		c.values[s.Key] = Value{Key: s.Key, Value: s.Display(norm), Source: source}
	}

	c.APIURL = c.values["api_url"].Value
	c.Timeout, _ = ParseDuration(c.values["timeout"].Value)
	c.MaxRetries, _ = strconv.Atoi(c.values["max_retries"].Value)
	c.WaitTimeout, _ = ParseDuration(c.values["wait_timeout"].Value)
	c.PollInterval, _ = ParseDuration(c.values["poll_interval"].Value)
	if h := c.values["trusted_hosts"].Value; h != "" {
		c.TrustedHosts = strings.Split(h, ",")
	}
	c.Debug = truthy(os.Getenv("FIBE_DEBUG"))
	if f := lookupFlag(fs, "debug"); f != nil && f.Changed {
		c.Debug = f.Value.String() == "true"
	}
	return c, nil
}

func (c *Config) sourceOf(s Setting, fs *pflag.FlagSet, raw, profile map[string]any) string {
	if f := lookupFlag(fs, s.Flag); f != nil && f.Changed {
		return "flag --" + s.Flag
	}
	if s.Env != "" {
		if os.Getenv(s.Env) != "" {
			return "env " + s.Env
		}
		if s.Key == "api_url" && os.Getenv("FIBE_DOMAIN") != "" {
			return "env FIBE_DOMAIN"
		}
	}
	if _, ok := profile[s.Key]; ok {
		return "profile " + c.Profile
	}
	if _, ok := raw[s.Key]; ok {
		return "config file"
	}
	return "default"
}

func lookupFlag(fs *pflag.FlagSet, name string) *pflag.Flag {
	if fs == nil || name == "" {
		return nil
	}
	return fs.Lookup(name)
}

func stringValue(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = fmt.Sprint(e)
		}
		return strings.Join(parts, ",")
	case []string:
		return strings.Join(t, ",")
	default:
		return fmt.Sprint(t)
	}
}

func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

func validProfile(name string) error {
	if name == "" || len(name) > 64 {
		return invalidf("invalid profile name %q", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return invalidf("invalid profile name %q: use letters, digits, - and _", name)
		}
	}
	return nil
}

// readFile reads config.yaml; a missing file is an empty config.
func readFile(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, invalidf("config file %s is not valid YAML: %v", path, err)
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

func profileSection(raw map[string]any, profile string) (map[string]any, bool) {
	profiles, ok := raw["profiles"].(map[string]any)
	if !ok {
		return nil, false
	}
	p, ok := profiles[profile].(map[string]any)
	return p, ok
}

func withoutProfiles(raw map[string]any) map[string]any {
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		if k != "profiles" {
			out[k] = v
		}
	}
	return out
}

// Set writes key=value into the config file: into the named profile's
// section, or at the top level for the default profile. An empty value
// removes the key. The value is validated first.
func Set(profile, key, value string) (string, error) {
	s, ok := Lookup(key)
	if !ok {
		return "", invalidf("unknown config key %q (known: %s)", key, strings.Join(Keys(), ", "))
	}
	if err := validProfile(profile); err != nil {
		return "", err
	}
	norm := ""
	if value != "" {
		var err error
		if norm, err = s.normalize(value); err != nil {
			return "", invalidf("%s: %v", key, err)
		}
	}
	file, err := ConfigFile()
	if err != nil {
		return "", err
	}
	raw, err := readFile(file)
	if err != nil {
		return "", err
	}
	section := raw
	if profile != DefaultProfile {
		profiles, _ := raw["profiles"].(map[string]any)
		if profiles == nil {
			profiles = map[string]any{}
			raw["profiles"] = profiles
		}
		p, _ := profiles[profile].(map[string]any)
		if p == nil {
			p = map[string]any{}
			profiles[profile] = p
		}
		section = p
	}
	if norm == "" {
		delete(section, key)
	} else if key == "trusted_hosts" {
		section[key] = strings.Split(norm, ",")
	} else if key == "max_retries" {
		n, _ := strconv.Atoi(norm)
		section[key] = n
	} else {
		section[key] = norm
	}
	data, err := yaml.Marshal(raw)
	if err != nil {
		return "", err
	}
	return file, writeFileAtomic(file, data, 0o600)
}

// Profiles lists the profiles named in the config file, plus the default.
func Profiles() ([]string, error) {
	file, err := ConfigFile()
	if err != nil {
		return nil, err
	}
	raw, err := readFile(file)
	if err != nil {
		return nil, err
	}
	names := []string{DefaultProfile}
	if profiles, ok := raw["profiles"].(map[string]any); ok {
		for name := range profiles {
			if name != DefaultProfile {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names[1:])
	return names, nil
}
