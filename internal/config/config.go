package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
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
	Value  string `json:"value"`  // canonical text; a secret is masked
	Source string `json:"source"` // "flag --x", "env FIBE_X", "profile NAME", "config file", "default"
	Flag   string `json:"flag,omitempty"`
	Env    string `json:"env,omitempty"`

	typed any
}

// Config is the resolved configuration of one invocation: every setting of
// the table, parsed once.
type Config struct {
	Profile       string
	ProfileSource string
	File          string // path of config.yaml (it may not exist)

	APIURL        string // normalized; LocalAPI for the embedded API
	APIKey        string // from --api-key or FIBE_API_KEY; "" → the stored key
	APIKeySource  string // SourceFlag or SourceEnv when APIKey is set
	Timeout       time.Duration
	MaxRetries    int
	WaitTimeout   time.Duration
	PollInterval  time.Duration
	BreakerWait   time.Duration // wait out an open breaker (docs/contract.md §6); 0 → fail fast
	TrustedHosts  []string
	StateStore    string        // "" → the file store; else a redis:// URL (it may hold a password: never print it)
	JournalWindow time.Duration // outcome journal (docs/contract.md §10); 0 → off
	Debug         bool
	NoKeyring     bool
	MCPToken      string        // fibe mcp serve --token / FIBE_MCP_TOKEN
	MCPCallBudget time.Duration // fibe mcp serve --call-budget; 0 → none
	MCPTools      string        // fibe mcp serve --tools: core or full
	MCPOrigins    []string      // fibe mcp serve --allow-origin
	Output        string        // "" (for people), OutputJSON or OutputYAML

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

// Load resolves every setting of the table once, with one viper instance
// (resolve.go): its flag when it was given (fs holds the executing
// command's flags; nil for none), then its environment variables, then the
// active profile's section of the config file, then the file's top level,
// then its default. A value that does not parse is an *InvalidError naming
// the setting and where the value came from.
func Load(fs *pflag.FlagSet) (*Config, error) {
	file, err := ConfigFile()
	if err != nil {
		return nil, err
	}
	c := &Config{File: file, values: map[string]Value{}}
	r := newResolver(fs)

	// The profile picks the file's section, so it is resolved first.
	pv, err := r.resolve(profileSetting())
	if err != nil {
		return nil, err
	}
	c.Profile, c.ProfileSource = pv.typed.(string), pv.Source
	c.values[pv.Key] = pv

	doc, err := readDocument(file)
	if err != nil {
		return nil, err
	}
	r.useFile(doc, c.Profile)

	for _, s := range Settings {
		if s.Key == pv.Key {
			continue
		}
		v, err := r.resolve(s)
		if err != nil {
			return nil, err
		}
		c.values[s.Key] = v
	}

	c.APIURL = c.str("api_url")
	if c.APIKey = c.str("api_key"); c.APIKey != "" {
		c.APIKeySource = c.values["api_key"].Source
	}
	c.Timeout = c.dur("timeout")
	c.MaxRetries = c.values["max_retries"].typed.(int)
	c.WaitTimeout = c.dur("wait_timeout")
	c.PollInterval = c.dur("poll_interval")
	c.scaleLocalPolls()
	c.BreakerWait = c.dur("breaker_wait")
	c.TrustedHosts, _ = c.values["trusted_hosts"].typed.([]string)
	c.StateStore = withEnvPassword(c.str("state_store"), c.values["state_store"].Source)
	c.JournalWindow = c.dur("journal_window")
	c.Debug = c.values["debug"].typed.(bool)
	c.NoKeyring = c.values["no_keyring"].typed.(bool)
	c.MCPToken = c.str("mcp_token")
	c.MCPCallBudget = c.dur("mcp_call_budget")
	c.MCPTools = c.str("mcp_tools")
	c.MCPOrigins, _ = c.values["mcp_allow_origins"].typed.([]string)
	c.Output = c.str("output")
	return c, nil
}

// scaleLocalPolls divides the default poll interval by FIBE_LOCAL_SPEED
// for the embedded API: its operations take a speed-th of their time, and
// polling them every second would make a rollout wait a second whatever the
// speed. A poll interval given by the user is kept as given.
func (c *Config) scaleLocalPolls() {
	speed, _ := c.values["local_speed"].typed.(float64)
	pv := c.values["poll_interval"]
	if !c.Local() || speed <= 1 || pv.Source != "default" {
		return
	}
	c.PollInterval = time.Duration(float64(c.PollInterval) / speed)
	pv.Value = c.PollInterval.String()
	pv.Source = "default ÷ FIBE_LOCAL_SPEED"
	pv.typed = c.PollInterval
	c.values[pv.Key] = pv
}

func (c *Config) str(key string) string        { s, _ := c.values[key].typed.(string); return s }
func (c *Config) dur(key string) time.Duration { d, _ := c.values[key].typed.(time.Duration); return d }

// Profile resolves only the profile (--profile, FIBE_PROFILE, default):
// enough for `fibe config set` to repair a config file that Load refuses.
func Profile(fs *pflag.FlagSet) (name, source string, err error) {
	v, err := newResolver(fs).resolve(profileSetting())
	if err != nil {
		return "", "", err
	}
	return v.typed.(string), v.Source, nil
}

func profileSetting() Setting {
	s, _ := Lookup("profile")
	return s
}

// FromEnv resolves a setting that only the environment sets (no flag, no
// config key: no_keyring, local_*), for code that runs without a Config
// (the credentials store, the --api-url local emulator). Load resolves
// them too, for `fibe config list` and to refuse a bad value up front. The
// value is typed as in Config; a bad one is an *InvalidError.
func FromEnv(key string) (any, error) {
	s, ok := Lookup(key)
	if !ok || s.Flag != "" || s.File {
		panic(fmt.Sprintf("config: %q is not a setting of the environment only", key))
	}
	v, err := newResolver(nil).resolve(s)
	if err != nil {
		return nil, err
	}
	return v.typed, nil
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

// Set writes key=value into the config file: into the named profile's
// section, or at the top level for the default profile. An empty value
// removes the key. The value is checked first, as Load would. The file is
// read and changed through viper (keys it does not know stay) and replaced
// atomically, mode 0600.
func Set(profile, key, value string) (string, error) {
	s, ok := Lookup(key)
	if !ok {
		return "", invalidf("unknown config key %q (known: %s)", key, strings.Join(FileKeys(), ", "))
	}
	if !s.File {
		return "", invalidf("%s is not kept in the config file: %s", key, notInFileHint(s))
	}
	if err := validProfile(profile); err != nil {
		return "", err
	}
	var typed any
	var canon string
	if value != "" {
		var err error
		if typed, canon, err = s.Parse(value); err != nil {
			return "", invalidf("%s: %v", key, err)
		}
	}
	file, err := ConfigFile()
	if err != nil {
		return "", err
	}
	doc, err := readDocument(file)
	if err != nil {
		return "", err
	}
	path := []string{key}
	if profile != DefaultProfile {
		path = []string{profilesKey, profile, key}
	}
	// A value that parses to nothing (an empty list, state_store "file",
	// output "") is the default: the key goes.
	if canon != "" {
		doc.Set(strings.Join(path, "."), fileValue(typed))
	}
	settings := doc.AllSettings()
	if canon == "" {
		deletePath(settings, path)
	}
	return file, writeDocument(file, settings)
}

// fileValue is how a typed value is written in YAML: numbers, booleans and
// lists as such, durations as text ("45s").
func fileValue(v any) any {
	if d, ok := v.(time.Duration); ok {
		return d.String()
	}
	return v
}

// notInFileHint says where a setting that the file cannot hold comes from.
func notInFileHint(s Setting) string {
	switch s.Key {
	case "api_key":
		return "store it with fibe auth login, or set FIBE_API_KEY"
	case "profile":
		return "use --profile or FIBE_PROFILE; a profile's values go under profiles.NAME"
	}
	return "set " + s.Sources()
}

// SecretFlags names the flags of this command line that carried a secret:
// --api-key, --token, a --state-store URL with credentials. Other users of
// the machine see a command line in `ps`; the environment variables (or
// the config file, 0600) keep them out of it.
func (c *Config) SecretFlags() []string {
	var out []string
	for _, s := range Settings {
		v, ok := c.values[s.Key]
		if !ok || !s.Secret || s.Flag == "" || v.Source != "flag --"+s.Flag {
			continue
		}
		if u, isURL := v.typed.(string); isURL && s.Kind == KindURL && MaskURL(u) == u {
			continue // a URL without credentials
		}
		out = append(out, "--"+s.Flag)
	}
	return out
}

// withEnvPassword: a state store URL from a flag or the config file that
// has no password (as `fibe mcp install` writes it into a client's config)
// takes the password of FIBE_STATE_STORE when that names the same store,
// so the password stays in the environment and out of argv and files.
func withEnvPassword(store, source string) string {
	if store == "" || strings.HasPrefix(source, "env ") {
		return store
	}
	u, err := url.Parse(store)
	if err != nil {
		return store
	}
	if _, has := u.User.Password(); has {
		return store
	}
	env, err := url.Parse(os.Getenv("FIBE_STATE_STORE"))
	if err != nil || env.User == nil {
		return store
	}
	pw, has := env.User.Password()
	if !has || !strings.EqualFold(env.Scheme, u.Scheme) || !strings.EqualFold(env.Host, u.Host) ||
		strings.Trim(env.Path, "/") != strings.Trim(u.Path, "/") {
		return store
	}
	user := env.User.Username()
	if u.User != nil {
		user = u.User.Username()
	}
	u.User = url.UserPassword(user, pw)
	return u.String()
}
