package statestore

import (
	"strings"

	"github.com/fibegg/fibe/internal/reliability"
)

// isRedisURL reports whether raw names a Redis store. Whether the value is
// a valid setting is decided once, by the settings table (internal/config).
func isRedisURL(raw string) bool {
	s := strings.ToLower(strings.TrimSpace(raw))
	return strings.HasPrefix(s, "redis://") || strings.HasPrefix(s, "rediss://")
}

// redact masks the credentials of a store URL the one way every URL is
// masked: "redis://****@host:6379/0" (reliability.MaskURL), parsed or not.
func redact(raw string) string { return reliability.MaskURL(raw) }

// redactErr is err's text with the credentials of raw masked.
func redactErr(err error, raw string) string { return reliability.MaskURLIn(err.Error(), raw) }
