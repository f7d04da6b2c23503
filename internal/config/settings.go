package config

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// Kind is the type of a setting's value.
type Kind int

// The kinds of value a setting can hold, and the Go type Load gives each.
const (
	KindString   Kind = iota // string
	KindDuration             // time.Duration: "30s", "5m", or plain seconds "30"
	KindInt                  // int
	KindFloat                // float64
	KindBool                 // bool: 1/0, true/false, yes/no, on/off
	KindURL                  // string, a URL checked by the setting's own parser
	KindList                 // []string, comma-separated (a YAML list in the file)
)

// String is the name of the kind, as flag help shows it.
func (k Kind) String() string {
	switch k {
	case KindDuration:
		return "duration"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindBool:
		return "bool"
	case KindURL:
		return "url"
	case KindList:
		return "list"
	}
	return "string"
}

// Setting is one row of the settings table: every setting of fibe, whether
// it comes from a flag, an environment variable, the config file or a
// default, is described here once and resolved by Load.
type Setting struct {
	Key     string   // its name; also its key in config.yaml when File is set
	Flag    string   // the flag that sets it ("" when none)
	Env     string   // the environment variable that sets it ("" when none)
	Aliases []string // further variables, read after Env (FIBE_DOMAIN)
	File    bool     // config.yaml (and `fibe config set`) may hold it
	Kind    Kind
	Default string // as text, parsed like any other value
	Help    string
	// Scope is "" for a global flag (every command has it); otherwise the
	// commands whose own flag sets it, and which register it themselves
	// (AddFlags, BindFlag).
	Scope string
	// Secret values are masked wherever they are shown and never repeated
	// in an error.
	Secret bool

	// parse turns raw text into the typed value and its canonical text; nil
	// means the kind's parser.
	parse func(raw string) (any, string, error)
	// check bounds a parsed value (nil: any value of the kind).
	check func(v any) error
	// mask hides the secret part of a value (nil: all of it).
	mask func(string) string
}

// LocalAPI is the api_url value that selects the embedded local API.
const LocalAPI = "local"

// DefaultAPIURL is the production API.
const DefaultAPIURL = "https://fibe.gg"

// Settings is the table, in display order. Defaults of the reliability
// contract come from internal/reliability, never repeated here.
var Settings = []Setting{
	{Key: "api_url", Flag: "api-url", Env: "FIBE_API_URL", Aliases: []string{"FIBE_DOMAIN"}, File: true,
		Kind: KindURL, Default: DefaultAPIURL,
		Help:  `API base URL, or "local" for the embedded local API`,
		parse: textParser(normalizeAPIURL)},
	{Key: "api_key", Flag: "api-key", Env: "FIBE_API_KEY", Secret: true,
		Help:  "API key; default: the key stored by fibe auth login",
		mask:  MaskToken,
		parse: secretText},
	{Key: "profile", Flag: "profile", Env: "FIBE_PROFILE", Default: DefaultProfile,
		Help:  "Configuration profile",
		parse: textParser(func(s string) (string, error) { return s, validProfile(s) })},
	{Key: "timeout", Flag: "timeout", Env: "FIBE_TIMEOUT", File: true,
		Kind: KindDuration, Default: reliability.DefaultAttemptTimeout.String(),
		Help: "Timeout of one HTTP attempt", check: positive},
	{Key: "max_retries", Flag: "max-retries", Env: "FIBE_MAX_RETRIES", File: true,
		Kind: KindInt, Default: strconv.Itoa(reliability.DefaultMaxRetries),
		Help: "Retries after the first attempt", check: intBetween(0, 100)},
	{Key: "wait_timeout", Flag: "wait-timeout", Env: "FIBE_WAIT_TIMEOUT", File: true, Scope: "commands that wait",
		Kind: KindDuration, Default: reliability.DefaultPollTimeout.String(),
		Help: "How long to wait for an async operation", check: positive},
	{Key: "poll_interval", Flag: "poll-interval", Env: "FIBE_POLL_INTERVAL", File: true, Scope: "commands that wait",
		Kind: KindDuration, Default: reliability.DefaultPollInterval.String(),
		Help: "Interval between polls of an async operation", check: positive},
	{Key: "breaker_wait", Flag: "breaker-wait", Env: "FIBE_BREAKER_WAIT", File: true,
		Kind: KindDuration, Default: reliability.DefaultBreakerWait.String(),
		Help:  "How long a request may wait for an open circuit breaker to half-open instead of failing with CIRCUIT_OPEN (0: fail fast; for CI)",
		check: durationBetween(0, reliability.MaxBreakerWait)},
	{Key: "trusted_hosts", Env: "FIBE_TRUSTED_HOSTS", File: true, Kind: KindList,
		Help:  "Comma-separated hosts that may receive the API key besides the API's own",
		parse: parseHosts},
	{Key: "state_store", Flag: "state-store", Env: "FIBE_STATE_STORE", File: true, Secret: true,
		Kind:  KindURL,
		Help:  `Where breakers, the rate ledger and the journal live: files under the state directory (default), or redis://[user:pass@]host:port/db`,
		parse: textParser(normalizeStateStore), mask: MaskURL},
	{Key: "journal_window", Env: "FIBE_JOURNAL_WINDOW", File: true,
		Kind: KindDuration, Default: reliability.DefaultJournalWindow.String(),
		Help:  "How long a re-run of an unfinished mutation reuses its idempotency key (0 turns it off; at most 24h)",
		check: durationBetween(0, reliability.JournalMaxAge)},
	{Key: "debug", Flag: "debug", Env: "FIBE_DEBUG", Kind: KindBool, Default: "false",
		Help: "Trace HTTP on stderr, credentials redacted"},
	{Key: "output", Flag: "output", Env: "FIBE_OUTPUT", File: true,
		Help:  "Print documents as json or yaml wherever --json works (default: for people; --json is --output json)",
		parse: textParser(normalizeOutput)},
	{Key: "no_keyring", Env: "FIBE_NO_KEYRING", Kind: KindBool, Default: "false",
		Help: "Keep API keys in a 0600 file instead of the OS keyring"},
	{Key: "mcp_token", Flag: "token", Env: "FIBE_MCP_TOKEN", Scope: "mcp serve", Secret: true,
		Help:  "Bearer token HTTP clients of fibe mcp serve must send (default: a random one, printed)",
		parse: secretText},
	{Key: "mcp_allow_origins", Flag: "allow-origin", Env: "FIBE_MCP_ALLOW_ORIGINS", Scope: "mcp serve", Kind: KindList,
		Help: "Browser origins fibe mcp serve --http accepts besides its own, comma-separated (e.g. http://localhost:3000)"},
	{Key: "mcp_call_budget", Flag: "call-budget", Env: "FIBE_MCP_CALL_BUDGET", File: true, Scope: "mcp serve",
		Kind: KindDuration, Default: "50s",
		Help:  "How long a waiting MCP tool call may wait before it answers with a hand-off handle (0: no budget; at most 30m)",
		check: durationBetween(0, 30*time.Minute)},
	{Key: "mcp_tools", Flag: "tools", Env: "FIBE_MCP_TOOLS", File: true, Scope: "mcp serve", Default: "core",
		Help: "The MCP tool set: core (the tools of docs/mcp-tools.md) or full (a tool per verb of every resource)",
		parse: textParser(func(s string) (string, error) {
			if s != "core" && s != "full" {
				return "", fmt.Errorf("want core or full, not %q", s)
			}
			return s, nil
		})},
	{Key: "local_speed", Env: "FIBE_LOCAL_SPEED", Kind: KindFloat, Default: "1",
		Help: "Speed factor of the --api-url local emulator's simulated durations", check: positive},
	{Key: "local_seed", Env: "FIBE_LOCAL_SEED", Kind: KindInt, Default: "0",
		Help: "Seed of the --api-url local emulator's fault generator"},
	{Key: "local_chaos", Env: "FIBE_LOCAL_CHAOS",
		Help: "Faults the --api-url local emulator injects: a profile (flaky, outage, hostile) or a spec"},
	{Key: "local_async_create", Env: "FIBE_LOCAL_ASYNC_CREATE", Kind: KindBool, Default: "false",
		Help: "The --api-url local emulator answers playground creation with 202"},
}

// Lookup finds a setting by key.
func Lookup(key string) (Setting, bool) {
	for _, s := range Settings {
		if s.Key == key {
			return s, true
		}
	}
	return Setting{}, false
}

// FileKeys lists the keys config.yaml may hold.
func FileKeys() []string {
	var keys []string
	for _, s := range Settings {
		if s.File {
			keys = append(keys, s.Key)
		}
	}
	return keys
}

// Display is value as it may be shown: a secret is masked.
func (s Setting) Display(value string) string {
	if !s.Secret || value == "" {
		return value
	}
	if s.mask != nil {
		return s.mask(value)
	}
	return "****"
}

// Sources names where a value can come from, for help texts:
// "--timeout, FIBE_TIMEOUT, config timeout".
func (s Setting) Sources() string {
	var parts []string
	if s.Flag != "" {
		parts = append(parts, "--"+s.Flag)
	}
	if s.Env != "" {
		parts = append(parts, s.Env)
	}
	parts = append(parts, s.Aliases...)
	if s.File {
		parts = append(parts, "config "+s.Key)
	}
	return strings.Join(parts, ", ")
}

// Parse checks raw text against the setting: its typed value and canonical
// text, or an error that never repeats a secret.
func (s Setting) Parse(raw string) (any, string, error) {
	parse := s.parse
	if parse == nil {
		parse = kindParser(s.Kind)
	}
	v, text, err := parse(raw)
	if err == nil && s.check != nil {
		err = s.check(v)
	}
	if err != nil {
		return nil, "", err
	}
	return v, text, nil
}

func kindParser(k Kind) func(string) (any, string, error) {
	switch k {
	case KindDuration:
		return func(raw string) (any, string, error) {
			d, err := parseDuration(raw)
			if err != nil {
				return nil, "", fmt.Errorf("invalid duration %q (examples: 30s, 5m)", raw)
			}
			return d, d.String(), nil
		}
	case KindInt:
		return func(raw string) (any, string, error) {
			n, err := strconv.Atoi(strings.TrimSpace(raw))
			if err != nil {
				return nil, "", fmt.Errorf("invalid integer %q", raw)
			}
			return n, strconv.Itoa(n), nil
		}
	case KindFloat:
		return func(raw string) (any, string, error) {
			f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
			if err != nil {
				return nil, "", fmt.Errorf("invalid number %q", raw)
			}
			return f, strconv.FormatFloat(f, 'g', -1, 64), nil
		}
	case KindBool:
		return func(raw string) (any, string, error) {
			switch strings.ToLower(strings.TrimSpace(raw)) {
			case "1", "true", "yes", "on":
				return true, "true", nil
			case "0", "false", "no", "off":
				return false, "false", nil
			}
			return nil, "", fmt.Errorf("invalid boolean %q (use true or false, 1 or 0)", raw)
		}
	case KindList:
		return func(raw string) (any, string, error) {
			var items []string
			for _, e := range strings.Split(raw, ",") {
				if e = strings.TrimSpace(e); e != "" {
					items = append(items, e)
				}
			}
			return items, strings.Join(items, ","), nil
		}
	}
	return func(raw string) (any, string, error) { return raw, raw, nil }
}

// The output formats of the output setting; "" is the human form.
const (
	OutputJSON = "json"
	OutputYAML = "yaml"
)

func normalizeOutput(raw string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(raw)); v {
	case "", OutputJSON, OutputYAML:
		return v, nil
	case "yml":
		return OutputYAML, nil
	}
	return "", fmt.Errorf("want json or yaml")
}

// textParser adapts a normalizer of text to a parser whose value is the text.
func textParser(normalize func(string) (string, error)) func(string) (any, string, error) {
	return func(raw string) (any, string, error) {
		s, err := normalize(raw)
		return s, s, err
	}
}

// secretText takes a secret as given, trimmed, refusing only what could not
// travel in a header; the error does not repeat it.
func secretText(raw string) (any, string, error) {
	s := strings.TrimSpace(raw)
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return nil, "", fmt.Errorf("contains a control character")
		}
	}
	return s, s, nil
}

func positive(v any) error {
	switch t := v.(type) {
	case time.Duration:
		if t <= 0 {
			return fmt.Errorf("%s must be positive", t)
		}
	case float64:
		if t <= 0 {
			return fmt.Errorf("%g must be positive", t)
		}
	case int:
		if t <= 0 {
			return fmt.Errorf("%d must be positive", t)
		}
	}
	return nil
}

func intBetween(lo, hi int) func(any) error {
	return func(v any) error {
		if n := v.(int); n < lo || n > hi {
			return fmt.Errorf("%d is out of range (%d to %d)", n, lo, hi)
		}
		return nil
	}
}

func durationBetween(lo, hi time.Duration) func(any) error {
	return func(v any) error {
		if d := v.(time.Duration); d < lo || d > hi {
			return fmt.Errorf("%s is out of range (%s to %s)", d, shortDuration(lo), shortDuration(hi))
		}
		return nil
	}
}

// shortDuration is "24h" rather than "24h0m0s".
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// NormalizeAPIURL accepts "local", a URL, or a bare host (FIBE_DOMAIN
// style, given https), and drops a trailing slash.
func normalizeAPIURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", fmt.Errorf("API URL is empty")
	}
	if raw == LocalAPI {
		return LocalAPI, nil
	}
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the whole text, credentials included.
		return "", fmt.Errorf("invalid API URL %q: %s", MaskURL(raw), parseReason(err, raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("invalid API URL %q: scheme must be http or https", MaskURL(raw))
	}
	if u.Host == "" {
		return "", fmt.Errorf("invalid API URL %q: no host", MaskURL(raw))
	}
	if u.User != nil {
		return "", fmt.Errorf("invalid API URL: credentials do not belong in the URL")
	}
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), nil
}

// parseReason is what url.Parse found wrong, without the text it quotes;
// nothing more precise when the text has credentials (an invalid escape
// quotes part of the password).
func parseReason(err error, raw string) string {
	var ue *url.Error
	if _, _, cred := reliability.URLUserinfo(raw); !cred && errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return "not a valid URL"
}

// NormalizeStateStore checks a state_store value: "" (or "file") is the
// file store under the state directory; otherwise a
// redis://[user:pass@]host:port/db URL (rediss:// for TLS). Errors never
// repeat the credentials.
func normalizeStateStore(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.EqualFold(raw, "file") {
		return "", nil
	}
	shown := MaskURL(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("invalid state store URL %q: want redis://[user:pass@]host:port/db", shown)
	}
	if s := strings.ToLower(u.Scheme); s != "redis" && s != "rediss" {
		return "", fmt.Errorf("invalid state store URL %q: the scheme must be redis or rediss", shown)
	}
	if u.Hostname() == "" {
		return "", fmt.Errorf("invalid state store URL %q: no host", shown)
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 {
			return "", fmt.Errorf("invalid state store URL %q: the path must be a database number", shown)
		}
	}
	return raw, nil
}

// MaskURL replaces the userinfo of a URL with "****": the one way a URL
// that may carry credentials is shown (reliability.MaskURL).
func MaskURL(raw string) string { return reliability.MaskURL(raw) }

// MaskURLIn returns text with raw's credentials masked wherever they
// appear (reliability.MaskURLIn).
func MaskURLIn(text, raw string) string { return reliability.MaskURLIn(text, raw) }

// ParseDuration accepts Go durations ("30s", "5m") and plain seconds ("30").
func parseDuration(raw string) (time.Duration, error) {
	raw = strings.TrimSpace(raw)
	if n, err := strconv.Atoi(raw); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(raw)
}

func parseHosts(raw string) (any, string, error) {
	var hosts []string
	for _, h := range strings.Split(raw, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if strings.ContainsAny(h, "/ ") {
			return nil, "", fmt.Errorf("invalid host %q: give a host name, optionally with :port", h)
		}
		hosts = append(hosts, strings.ToLower(h))
	}
	return hosts, strings.Join(hosts, ","), nil
}
