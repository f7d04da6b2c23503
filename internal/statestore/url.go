package statestore

import (
	"fmt"
	"strings"

	"github.com/fibegg/fibe/internal/reliability"
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

// redact masks the credentials of a store URL the one way every URL is
// masked: "redis://****@host:6379/0" (reliability.MaskURL), parsed or not.
func redact(raw string) string { return reliability.MaskURL(raw) }

// redactErr is err's text with the credentials of raw masked.
func redactErr(err error, raw string) string { return reliability.MaskURLIn(err.Error(), raw) }
