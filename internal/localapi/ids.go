package localapi

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
)

// newID returns prefix + 16 random hex characters (request and operation ids).
func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func itoa(n int) string { return strconv.Itoa(n) }

// isNumeric reports whether a path reference is an id rather than a name.
func isNumeric(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
