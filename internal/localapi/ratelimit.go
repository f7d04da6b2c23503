package localapi

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// rateWindow is a fixed window of requests for one key. Windows are
// aligned on the Unix clock (they start at multiples of their length), as
// most fixed-window limiters do, so a window of whole seconds ends on a
// whole second and X-RateLimit-Reset names its true end.
type rateWindow struct {
	Start time.Time `json:"start"`
	Count int       `json:"count"`
}

// rateStatus is what the X-RateLimit-* headers report.
type rateStatus struct {
	limit     int
	remaining int
	reset     time.Time
	exceeded  bool
}

// rateLimit counts one request against bucket. Requests to /_local do not
// consume (consume=false) but still report the window.
func (st *state) rateLimit(bucket string, now time.Time, limit int, window time.Duration, consume bool) rateStatus {
	w := st.Rate[bucket]
	if start := windowStart(now, window); w == nil || !w.Start.Equal(start) {
		w = &rateWindow{Start: start}
		st.Rate[bucket] = w
	}
	rs := rateStatus{limit: limit, reset: w.Start.Add(window)}
	if consume {
		if w.Count >= limit {
			rs.exceeded = true
		} else {
			w.Count++
		}
	}
	rs.remaining = max(limit-w.Count, 0)
	return rs
}

// windowStart is the start of the aligned window that holds now.
func windowStart(now time.Time, window time.Duration) time.Time {
	ns := now.UnixNano()
	off := ns % int64(window)
	if off < 0 {
		off += int64(window)
	}
	return time.Unix(0, ns-off).In(now.Location())
}

// setHeaders writes the X-RateLimit-* headers spelled as documented (Go
// would canonicalise them to X-Ratelimit-*; readers match either way).
func (rs rateStatus) setHeaders(h http.Header) {
	h["X-RateLimit-Limit"] = []string{strconv.Itoa(rs.limit)}
	h["X-RateLimit-Remaining"] = []string{strconv.Itoa(rs.remaining)}
	h["X-RateLimit-Reset"] = []string{strconv.FormatInt(ceilUnix(rs.reset), 10)}
}

// ceilUnix rounds a window's end up to the whole second the header can
// carry; aligned windows of whole seconds need no rounding, and a client
// waiting for a rounded-up Reset only waits a little longer than needed.
func ceilUnix(t time.Time) int64 {
	if t.Nanosecond() > 0 {
		return t.Unix() + 1
	}
	return t.Unix()
}

func rateLimited(rs rateStatus, now time.Time) error {
	wait := max(int(math.Ceil(rs.reset.Sub(now).Seconds())), 1)
	return newAPIError(http.StatusTooManyRequests, codeRateLimited, "rate limit exceeded",
		map[string]any{"limit": rs.limit, "retry_after": wait}).
		withHeader("Retry-After", strconv.Itoa(wait))
}

// bearerKey returns the key of an "Authorization: Bearer" header, or "".
func bearerKey(h http.Header) string {
	v := h.Get("Authorization")
	scheme, key, ok := strings.Cut(v, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(key)
}

// bucketOf names a key's rate window and idempotency namespace without
// storing the key itself.
func bucketOf(key string) string {
	if key == "" {
		return "anonymous"
	}
	sum := sha256.Sum256([]byte(key))
	return "key_" + hex.EncodeToString(sum[:8])
}

// validKey reports whether token is a live key of some player.
func (s *Server) validKey(token string) bool {
	ok := false
	_ = s.store.update(s.now(), func(st *state) change {
		ok = st.keyOf(token, s.now()) != nil
		return unchanged
	})
	return ok
}

func unauthorized(key string) error {
	msg := "invalid API key"
	if key == "" {
		msg = "missing API key: send Authorization: Bearer <key>"
	}
	return newAPIError(http.StatusUnauthorized, codeUnauthorized, msg, nil).
		withHeader("WWW-Authenticate", `Bearer realm="fibe"`)
}
