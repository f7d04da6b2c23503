package reliability

import (
	"encoding/json"
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
	rem, ok1 := parseNonNegative(h.Get("X-RateLimit-Remaining"))
	reset, ok2 := parseNonNegative(h.Get("X-RateLimit-Reset"))
	if !ok1 || !ok2 || reset > 1<<40 { // beyond year 36000: garbage
		return RateLimit{}, false
	}
	limit, _ := parseNonNegative(h.Get("X-RateLimit-Limit"))
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

// Ledger remembers the last rate-limit answer of an API host in the Store,
// so the next request, in this process or the next invocation, waits for
// the window to refill instead of earning a 429.
type Ledger struct {
	store   Store
	key     string
	clock   Clock
	ceiling time.Duration
}

// NewLedger returns the ledger of host.
func NewLedger(store Store, host string, p Policy, clock Clock) *Ledger {
	if clock == nil {
		clock = SystemClock()
	}
	return &Ledger{store: store, key: "ratelimit-" + host, clock: clock, ceiling: p.WithDefaults().RateWaitCeiling}
}

// Observe records the rate-limit headers of a response.
func (l *Ledger) Observe(rl RateLimit) error {
	return l.store.Update(l.key, func([]byte) ([]byte, error) { return json.Marshal(rl) })
}

// Wait is how long the next request should wait: until Reset when the
// budget is spent and Reset is ahead (capped), otherwise zero.
func (l *Ledger) Wait() time.Duration {
	data, err := l.store.Load(l.key)
	if err != nil || len(data) == 0 {
		return 0
	}
	var rl RateLimit
	if json.Unmarshal(data, &rl) != nil || rl.Remaining > 0 {
		return 0
	}
	d := rl.Reset.Sub(l.clock.Now())
	if d <= 0 {
		return 0
	}
	return capAt(d, l.ceiling)
}

// Last returns the last recorded rate-limit answer, if any.
func (l *Ledger) Last() (RateLimit, bool) {
	data, err := l.store.Load(l.key)
	if err != nil || len(data) == 0 {
		return RateLimit{}, false
	}
	var rl RateLimit
	if json.Unmarshal(data, &rl) != nil {
		return RateLimit{}, false
	}
	return rl, true
}
