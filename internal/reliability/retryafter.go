package reliability

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ParseRetryAfter reads a Retry-After value: whole seconds or an HTTP-date.
// The result is capped at ceiling. ok is false for an absent, garbled,
// negative or past value, which the caller then ignores (backoff applies).
func ParseRetryAfter(value string, now time.Time, ceiling time.Duration) (d time.Duration, ok bool) {
	v := strings.TrimSpace(value)
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > maxSeconds {
			secs = maxSeconds // beyond what a Duration holds: saturate, then cap
		}
		return capAt(time.Duration(secs)*time.Second, ceiling), true
	}
	if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
		return 0, false
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d = t.Sub(now)
	if d < 0 {
		return 0, false
	}
	return capAt(d, ceiling), true
}

// maxSeconds is the longest whole-second wait a time.Duration can hold.
const maxSeconds = int64(math.MaxInt64 / time.Second)

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func capAt(d, ceiling time.Duration) time.Duration {
	if ceiling > 0 && d > ceiling {
		return ceiling
	}
	return d
}
