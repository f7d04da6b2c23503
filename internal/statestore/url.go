package statestore

import (
	"fmt"
	"net/url"
	"strings"
)

// IsRedisURL reports whether raw names a Redis store.
func isRedisURL(raw string) bool {
	s := strings.ToLower(strings.TrimSpace(raw))
	return strings.HasPrefix(s, "redis://") || strings.HasPrefix(s, "rediss://")
}

// Normalize checks a state store setting: "file" (the default, files under
// the state directory; "" means the same), or redis://[user:pass@]host:port/db
// (rediss:// for TLS). Errors never repeat the password.
func normalize(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	switch strings.ToLower(raw) {
	case "", "file":
		return "file", nil
	}
	if !isRedisURL(raw) {
		return "", fmt.Errorf("invalid state store %q: want \"file\" or redis://[user:pass@]host:port/db (rediss:// for TLS)", redact(raw))
	}
	if _, err := OpenRedis(raw, 0); err != nil {
		return "", err
	}
	return raw, nil
}

// Redact masks the password of a store URL ("redis://user:xxxxx@host/0").
// Text that does not parse as a URL is masked after its scheme.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if user := userinfo(raw); user != "" {
			return strings.Replace(raw, user+"@", "xxxxx@", 1)
		}
		return raw
	}
	return u.Redacted()
}

// redactErr removes the credentials of raw from err's text.
func redactErr(err error, raw string) string {
	msg := err.Error()
	if user := userinfo(raw); user != "" {
		msg = strings.ReplaceAll(msg, user, "xxxxx")
		if _, pw, ok := strings.Cut(user, ":"); ok && len(pw) > 0 {
			msg = strings.ReplaceAll(msg, pw, "xxxxx")
		}
	}
	return msg
}

// userinfo is the "user:pass" part of a URL, found without parsing it.
func userinfo(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return ""
	}
	rest := raw[i+3:]
	if j := strings.IndexAny(rest, "/?#"); j >= 0 {
		rest = rest[:j]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		return rest[:at]
	}
	return ""
}
