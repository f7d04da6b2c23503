package reliability

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RateLimit is what X-RateLimit-* said on one response.
type RateLimit struct {
	Limit     int       `json:"limit"`
	Remaining int       `json:"remaining"`
	Reset     time.Time `json:"reset"`
}

// ParseRateLimit reads X-RateLimit-Limit, -Remaining and -Reset (Unix
// seconds). ok is false unless Remaining and Reset are both present and sane;
// a garbled Limit is left at zero.
func ParseRateLimit(h http.Header) (RateLimit, bool) {
	// Canonical spellings: Get canonicalises its argument, and a key that is
	// already canonical costs no allocation.
	rem, ok1 := parseNonNegative(h.Get("X-Ratelimit-Remaining"))
	reset, ok2 := parseNonNegative(h.Get("X-Ratelimit-Reset"))
	if !ok1 || !ok2 || reset > 1<<40 { // beyond year 36000: garbage
		return RateLimit{}, false
	}
	limit, _ := parseNonNegative(h.Get("X-Ratelimit-Limit"))
	return RateLimit{Limit: int(limit), Remaining: int(rem), Reset: time.Unix(reset, 0).UTC()}, true
}

func parseNonNegative(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	if !isDigits(v) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n > 1<<53 {
		return 0, false
	}
	return n, true
}
