package reliability

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"
)

// Ledger paces the requests of one API host against its rate limit, so
// that a client sends what the window allows and then waits for Reset
// instead of earning a 429 (docs/contract.md §3).
//
// A Reset more than MaxRateReset ahead, or already past, is implausible and
// ignored, whether it comes in an answer or from the store; and each answer
// replaces the window an earlier answer showed, so one bogus header is
// forgotten at the next healthy one.
//
// Every request sent takes a slot: the ledger decrements its own Remaining
// on admission, so requests in flight on other goroutines count before
// their answers arrive. Each answer's X-RateLimit-* headers are folded in:
// for the same window (same Reset) the smaller Remaining wins, another
// window replaces the old one, and an answer about a window that has
// ended is ignored. When no slot is left the
// next request waits until Reset.
//
// The view outlives the process in the Store, but it is written only when
// it matters, since every request would pay for the write: when a new
// window is seen, and for a window's last few slots (the low water mark),
// whose reservations go through the store so that processes sharing it
// split them and the next invocation knows the budget is spent.
type Ledger struct {
	store   Store
	key     string
	clock   Clock
	ceiling time.Duration

	mu     sync.Mutex
	cur    RateLimit // the window in force as seen here; Remaining = slots not yet taken
	fresh  int       // requests sent since the last window ended (or before any answer)
	loaded bool      // the stored view was read since the last window ended
	saved  RateLimit // the stored view as of the last read or write
}

// MaxRateReset is how far ahead a window's Reset may be and still be
// believed: no server's rate window is longer than a day. A farther Reset
// (a garbled header, "year 5138") is ignored, never waited on.
const MaxRateReset = 24 * time.Hour

// Plausible reports whether rl's window is in force at now and resets
// within MaxRateReset.
func (rl RateLimit) Plausible(now time.Time) bool {
	return rl.Reset.After(now) && !rl.Reset.After(now.Add(MaxRateReset))
}

// NewLedger returns the ledger of scope, the rate-limit bucket it paces:
// LedgerScope of the API origin and key, as servers count per key.
func NewLedger(store Store, scope string, p Policy, clock Clock) *Ledger {
	if clock == nil {
		clock = SystemClock()
	}
	return &Ledger{store: store, key: LedgerKey(scope), clock: clock, ceiling: p.WithDefaults().RateWaitCeiling}
}

// LedgerScope names the rate-limit bucket of an API origin
// (scheme://host:port) and API key. The key appears only as a short hash
// of it, never itself: the scope is a state key, and a file name.
func LedgerScope(origin, apiKey string) string {
	if apiKey == "" {
		return origin + "-nokey"
	}
	sum := sha256.Sum256([]byte(apiKey))
	return origin + "-" + hex.EncodeToString(sum[:8])
}

// LedgerKey is the store record of host's rate ledger.
func LedgerKey(host string) string { return "ratelimit-" + host }

// Key is the store record of this ledger.
func (l *Ledger) Key() string { return l.key }

// Admit takes a slot for one request, first waiting until Reset when the
// window in force has none left. onWait, when set, is told about each wait
// before it starts. The waits of one Admit add up to at most the policy's
// RateWaitCeiling, after which the request goes anyway, so a bogus Reset
// cannot park the caller. It returns ctx's error when cancelled while
// waiting.
func (l *Ledger) Admit(ctx context.Context, onWait func(time.Duration)) error {
	return l.AdmitAfter(ctx, time.Time{}, onWait)
}

// AdmitAfter is Admit for a request sent again after a 429 whose
// Retry-After the caller waited: that wait satisfies the window the 429
// was about (the one resetting at window, as Last showed then), so a slot
// of it is taken without waiting again: the two waits never stack. A
// later window known to be spent is waited for as usual.
func (l *Ledger) AdmitAfter(ctx context.Context, window time.Time, onWait func(time.Duration)) error {
	var waited time.Duration
	for {
		wait := l.reserve(waited >= l.ceiling || l.settled(window))
		if wait <= 0 {
			return nil
		}
		wait = min(wait, l.ceiling-waited)
		if onWait != nil {
			onWait(wait)
		}
		if err := l.clock.Sleep(ctx, wait); err != nil {
			return err
		}
		waited += wait
	}
}

// settled reports whether the window in force is no later than window,
// one a 429's Retry-After has settled.
func (l *Ledger) settled(window time.Time) bool {
	if window.IsZero() {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.cur.Reset.After(window)
}

// reserve takes a slot and returns 0, or returns how long to wait for the
// next window. force sends without a slot when none is left.
func (l *Ledger) reserve(force bool) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.refresh(now)
	if !now.Before(l.cur.Reset) { // no window known to be in force here
		// On a fleet store another machine may know it: take a slot of
		// the stored window, or wait when the fleet has spent it.
		if sharedByFleet(l.store) {
			if l.reserveShared(now) {
				return 0
			}
			if now.Before(l.cur.Reset) && !force {
				return l.cur.Reset.Sub(now)
			}
		}
		l.fresh++
		return 0
	}
	if l.cur.Remaining > lowWater(l.cur.Limit) && !sharedByFleet(l.store) {
		l.cur.Remaining--
		return 0
	}
	if l.reserveShared(now) || force {
		return 0
	}
	return l.cur.Reset.Sub(now)
}

// reserveShared takes one of the window's last slots through the store,
// after folding in what other processes took. Without a working store it
// falls back on this process's view.
func (l *Ledger) reserveShared(now time.Time) bool {
	got, took, err := l.store.LedgerReserve(l.key, l.cur, true, now)
	switch {
	case err == nil:
		l.merge(got, now, false)
		l.saved = got
	case l.cur.Remaining > 0:
		l.cur.Remaining--
		took = true
	}
	return took
}

// Observe folds in the rate-limit headers of an answer.
func (l *Ledger) Observe(rl RateLimit) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.refresh(now)
	l.merge(rl, now, true)
	if !l.worthSaving(now) {
		return nil
	}
	got, _, err := l.store.LedgerReserve(l.key, l.cur, false, now)
	if err == nil {
		l.merge(got, now, false)
		l.saved = got
	}
	return err
}

// Reset forgets the window, here and in the store (`fibe breaker reset`).
func (l *Ledger) Reset() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cur, l.saved, l.fresh, l.loaded = RateLimit{}, RateLimit{}, 0, true
	return l.store.LedgerReset(l.key)
}

// Wait is how long the next request would wait: until Reset when the
// window in force has no slot left (capped at the ceiling), otherwise zero.
// It takes no slot.
func (l *Ledger) Wait() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.refresh(now)
	if !now.Before(l.cur.Reset) || l.cur.Remaining > 0 {
		return 0
	}
	return capAt(l.cur.Reset.Sub(now), l.ceiling)
}

// Last returns the window in force as the ledger sees it (Remaining net of
// the slots taken here), if one is known.
func (l *Ledger) Last() (RateLimit, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.clock.Now()
	l.refresh(now)
	if !now.Before(l.cur.Reset) {
		return RateLimit{}, false
	}
	return l.cur, true
}

// refresh forgets a window that has ended and then, once until the next
// answer, reads the stored view: another invocation may already know the
// new window, and that it is spent.
func (l *Ledger) refresh(now time.Time) {
	if !l.cur.Reset.IsZero() && !now.Before(l.cur.Reset) {
		l.cur = RateLimit{Limit: l.cur.Limit}
		l.fresh, l.loaded = 0, false
	}
	if l.loaded || !l.cur.Reset.IsZero() {
		return
	}
	l.loaded = true
	saved, err := l.store.LedgerLoad(l.key)
	if err != nil {
		return
	}
	l.saved = saved
	l.merge(l.saved, now, false)
}

// merge folds another view of the limit into the current one: an
// implausible window (ended, or resetting beyond MaxRateReset) is ignored;
// for the same window the smaller Remaining wins; a later window replaces
// the current one, and so does any other window when answer is set (the
// view is what the latest answer said, which replaces an earlier answer's).
func (l *Ledger) merge(rl RateLimit, now time.Time, answer bool) {
	if !rl.Plausible(now) {
		return
	}
	switch {
	case rl.Reset.After(l.cur.Reset) || answer && !rl.Reset.Equal(l.cur.Reset):
		rem := rl.Remaining
		// Requests sent before this window was known may not be in rl's
		// count yet; with the limit known, none of them is lost.
		if rl.Limit > 0 {
			rem = min(rem, rl.Limit-l.fresh)
		} else {
			rem -= max(l.fresh-1, 0)
		}
		limit := rl.Limit
		if limit == 0 {
			limit = l.cur.Limit
		}
		l.cur = RateLimit{Limit: limit, Remaining: max(rem, 0), Reset: rl.Reset}
		l.fresh = 0
	case rl.Reset.Equal(l.cur.Reset):
		l.cur.Remaining = min(l.cur.Remaining, rl.Remaining)
		if rl.Limit > 0 {
			l.cur.Limit = rl.Limit
		}
	}
}

// worthSaving says whether the stored view is out of date in a way another
// invocation would act on: a newer window, or fewer of the last slots left.
func (l *Ledger) worthSaving(now time.Time) bool {
	if !now.Before(l.cur.Reset) {
		return false
	}
	if !l.cur.Reset.Equal(l.saved.Reset) {
		return true
	}
	return l.cur.Reset.Equal(l.saved.Reset) && l.cur.Remaining < l.saved.Remaining && l.cur.Remaining <= lowWater(l.cur.Limit)
}

// lowWater is where a window's last slots begin; a tenth of the limit,
// at least 2.
func lowWater(limit int) int { return max(limit/10, 2) }

// reserveRateLimit is the store's ledger transition. A reservation (take)
// folds view into stored (mergeRateLimit) and takes a slot of the window in
// force when one is left; an answer's view (no take) replaces a stored view
// of another window, so a later answer always wins over an earlier one.
// Implausible windows, stored or new, are dropped.
func reserveRateLimit(stored, view RateLimit, take bool, now time.Time) (RateLimit, bool) {
	var got RateLimit
	if !take && view.Plausible(now) && !view.Reset.Equal(stored.Reset) {
		got = view
		if got.Limit == 0 {
			got.Limit = stored.Limit
		}
		got.Remaining = max(got.Remaining, 0)
		return got, false
	}
	got = mergeRateLimit(stored, view, now)
	if take && got.Reset.After(now) && got.Remaining > 0 {
		got.Remaining--
		return got, true
	}
	return got, false
}

// mergeRateLimit is the most conservative of two views of the window: a
// window that has ended or resets beyond MaxRateReset is no view, a later window replaces an earlier
// one, and for the same window the smaller Remaining wins. A Limit that one
// view lacks is taken from the other.
func mergeRateLimit(a, b RateLimit, now time.Time) RateLimit {
	if !a.Plausible(now) {
		a = RateLimit{Limit: a.Limit}
	}
	if !b.Plausible(now) {
		b = RateLimit{Limit: b.Limit}
	}
	if b.Reset.After(a.Reset) {
		a, b = b, a
	}
	// a is the later window (or the same one).
	if a.Reset.Equal(b.Reset) {
		a.Remaining = min(a.Remaining, b.Remaining)
		a.Limit = max(a.Limit, b.Limit)
	} else if a.Limit == 0 {
		a.Limit = b.Limit
	}
	a.Remaining = max(a.Remaining, 0)
	return a
}

// decodeRateLimit reads a stored view; anything unreadable is no view.
func decodeRateLimit(data []byte) RateLimit {
	var rl RateLimit
	if len(data) == 0 || json.Unmarshal(data, &rl) != nil || rl.Remaining < 0 {
		return RateLimit{}
	}
	return rl
}
