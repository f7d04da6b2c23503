package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/statestore"
)

// Setting describes one configurable value: its config key, the flag and
// environment variable that override it, and its default.
type Setting struct {
	Key     string
	Flag    string // "" when no flag sets it
	Env     string // "" when no variable sets it
	Default string
	Help    string
	// normalize validates a raw value and returns its canonical text.
	normalize func(string) (string, error)
	// mask, when set, hides the secret part of a value for display.
	mask func(string) string
}

// Display is value as `fibe config` shows it: secrets masked.
func (s Setting) Display(value string) string {
	if s.mask == nil || value == "" {
		return value
	}
	return s.mask(value)
}

// LocalAPI is the api_url value that selects the embedded local API.
const LocalAPI = "local"

// DefaultAPIURL is the production API.
const DefaultAPIURL = "https://fibe.gg"

// Settings lists every key `fibe config` knows, in display order.
var Settings = []Setting{
	{Key: "api_url", Flag: "api-url", Env: "FIBE_API_URL", Default: DefaultAPIURL,
		Help: "API base URL, or \"local\" for the embedded local API", normalize: NormalizeAPIURL},
	{Key: "timeout", Flag: "timeout", Env: "FIBE_TIMEOUT", Default: "30s",
		Help: "timeout of one HTTP attempt", normalize: normalizePositiveDuration},
	{Key: "max_retries", Flag: "max-retries", Env: "FIBE_MAX_RETRIES", Default: "3",
		Help: "retries after the first attempt", normalize: normalizeRetries},
	{Key: "wait_timeout", Flag: "wait-timeout", Env: "FIBE_WAIT_TIMEOUT", Default: "5m",
		Help: "how long async commands wait", normalize: normalizePositiveDuration},
	{Key: "poll_interval", Flag: "poll-interval", Env: "FIBE_POLL_INTERVAL", Default: "1s",
		Help: "interval between polls of an async operation", normalize: normalizePositiveDuration},
	{Key: "trusted_hosts", Env: "FIBE_TRUSTED_HOSTS", Default: "",
		Help: "comma-separated hosts that may receive the API key besides the API's own", normalize: normalizeHosts},
	{Key: "state_store", Flag: "state-store", Env: "FIBE_STATE_STORE", Default: "file",
		Help:      "where breakers, the rate ledger, the marquee cache and the journal live: \"file\" (the state directory) or redis://[user:pass@]host:port/db (rediss:// for TLS)",
		normalize: statestore.Normalize, mask: statestore.Redact},
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

// Keys lists the known keys.
func Keys() []string {
	keys := make([]string, len(Settings))
	for i, s := range Settings {
		keys[i] = s.Key
	}
	return keys
}

// NormalizeAPIURL accepts "local", a URL, or a bare host (FIBE_DOMAIN
// style, given https), and drops a trailing slash.
func NormalizeAPIURL(raw string) (string, error) {
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
		return "", fmt.Errorf("invalid API URL %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("invalid API URL %q: scheme must be http or https", raw)
	}
	if u.Host == "" {
		return "", fmt.Errorf("invalid API URL %q: no host", raw)
	}
	if u.User != nil {
		return "", fmt.Errorf("invalid API URL: credentials do not belong in the URL")
	}
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), nil
}

// ParseDuration accepts Go durations ("30s", "5m") and plain seconds ("30").
func ParseDuration(raw string) (time.Duration, error) {
	raw = strings.TrimSpace(raw)
	if n, err := strconv.Atoi(raw); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(raw)
}

func normalizePositiveDuration(raw string) (string, error) {
	d, err := ParseDuration(raw)
	if err != nil {
		return "", fmt.Errorf("invalid duration %q (examples: 30s, 5m)", raw)
	}
	if d <= 0 {
		return "", fmt.Errorf("duration %q must be positive", raw)
	}
	return d.String(), nil
}

func normalizeRetries(raw string) (string, error) {
	n, err := strconv.Atoi(strings.TrimSpace(raw))
	if err != nil || n < 0 || n > 100 {
		return "", fmt.Errorf("invalid retry count %q (0 to 100)", raw)
	}
	return strconv.Itoa(n), nil
}

func normalizeHosts(raw string) (string, error) {
	var hosts []string
	for _, h := range strings.Split(raw, ",") {
		if h = strings.TrimSpace(h); h == "" {
			continue
		}
		if strings.ContainsAny(h, "/ ") {
			return "", fmt.Errorf("invalid host %q: give a host name, optionally with :port", h)
		}
		hosts = append(hosts, strings.ToLower(h))
	}
	return strings.Join(hosts, ","), nil
}
