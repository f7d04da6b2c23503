package statestore

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability"
)

// Failover is the store of an invocation that names a shared store: every
// transition goes to Primary until it fails once (refused, timeout, auth
// error, a wrong-type key, ...), and from then on to Local, the file store.
// Warn is told once. The command runs normally either way: the store never
// blocks the user. A process that lives on (mcp serve, the console, a
// program on the SDK) tries Primary again at most once per RetryEvery
// (reliability.DefaultStoreRetry when zero), one call at a time, and goes
// back to it when it answers.
//
// The journal is read from both: entries written to the file store during
// a fallback are seen (listed, claimed, removed) by later invocations
// whichever store they use, so a fallback never hides an unfinished
// mutation.
type Failover struct {
	Primary reliability.Store
	Local   reliability.Store
	Warn    func(err error)
	// RetryEvery is the least time between tries of a failed Primary;
	// zero → reliability.DefaultStoreRetry.
	RetryEvery time.Duration
	// Clock reads the time for RetryEvery; nil → the system clock.
	Clock reliability.Clock

	down atomic.Bool
	once sync.Once

	mu       sync.Mutex
	failedAt time.Time // when Primary last failed
	probing  bool      // a call is trying Primary again
}

// Down reports whether the primary store is failed over (until a retry
// finds it back).
func (f *Failover) Down() bool { return f.down.Load() }

func (f *Failover) now() time.Time {
	if f.Clock == nil {
		return time.Now()
	}
	return f.Clock.Now()
}

func (f *Failover) fail(err error) {
	f.mu.Lock()
	f.down.Store(true)
	f.failedAt, f.probing = f.now(), false
	f.mu.Unlock()
	f.once.Do(func() {
		if f.Warn != nil {
			f.Warn(err)
		}
	})
}

// usePrimary says whether this call goes to Primary: always while it is
// up; after a failure, for one call at a time once RetryEvery has passed.
func (f *Failover) usePrimary() bool {
	if !f.down.Load() {
		return true
	}
	every := f.RetryEvery
	if every <= 0 {
		every = reliability.DefaultStoreRetry
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.probing || f.now().Sub(f.failedAt) < every {
		return false
	}
	f.probing = true
	return true
}

// ok notes that Primary answered: the retry found it back.
func (f *Failover) ok() {
	if !f.down.Load() {
		return
	}
	f.mu.Lock()
	f.down.Store(false)
	f.probing = false
	f.mu.Unlock()
}

func run[T any](f *Failover, fn func(reliability.Store) (T, error)) (T, error) {
	if f.usePrimary() {
		v, err := fn(f.Primary)
		if err == nil {
			f.ok()
			return v, nil
		}
		f.fail(err)
	}
	return fn(f.Local)
}

func run0(f *Failover, fn func(reliability.Store) error) error {
	_, err := run(f, func(s reliability.Store) (struct{}, error) { return struct{}{}, fn(s) })
	return err
}

// Describe names the store in use.
func (f *Failover) Describe() string {
	if f.down.Load() {
		return f.Local.Describe() + " (fallback: " + f.Primary.Describe() + " failed)"
	}
	return f.Primary.Describe()
}

// SharedByFleet holds until the primary store fails.
func (f *Failover) SharedByFleet() bool { return !f.down.Load() }

// Prefetch passes the keys on to the primary store.
func (f *Failover) Prefetch(keys ...string) { reliability.Prefetch(f.Primary, keys...) }

func (f *Failover) BreakerGet(key, resource string) (gobreaker.SharedState, error) {
	return run(f, func(s reliability.Store) (gobreaker.SharedState, error) { return s.BreakerGet(key, resource) })
}

func (f *Failover) BreakerList(key string) (map[string]gobreaker.SharedState, error) {
	return run(f, func(s reliability.Store) (map[string]gobreaker.SharedState, error) { return s.BreakerList(key) })
}

func (f *Failover) BreakerAdmit(key, resource string, p reliability.BreakerParams, now time.Time) (reliability.BreakerAdmission, error) {
	return run(f, func(s reliability.Store) (reliability.BreakerAdmission, error) {
		return s.BreakerAdmit(key, resource, p, now)
	})
}

func (f *Failover) BreakerRecord(key, resource string, generation uint64, o reliability.Outcome, p reliability.BreakerParams, now time.Time) (reliability.BreakerRecorded, error) {
	return run(f, func(s reliability.Store) (reliability.BreakerRecorded, error) {
		return s.BreakerRecord(key, resource, generation, o, p, now)
	})
}

func (f *Failover) BreakerReset(key, resource string) error {
	return run0(f, func(s reliability.Store) error { return s.BreakerReset(key, resource) })
}

func (f *Failover) LedgerLoad(key string) (reliability.RateLimit, error) {
	return run(f, func(s reliability.Store) (reliability.RateLimit, error) { return s.LedgerLoad(key) })
}

func (f *Failover) LedgerReset(key string) error {
	return run0(f, func(s reliability.Store) error { return s.LedgerReset(key) })
}

func (f *Failover) LedgerReserve(key string, view reliability.RateLimit, take bool, now time.Time) (reliability.RateLimit, bool, error) {
	type res struct {
		rl   reliability.RateLimit
		took bool
	}
	r, err := run(f, func(s reliability.Store) (res, error) {
		rl, took, err := s.LedgerReserve(key, view, take, now)
		return res{rl, took}, err
	})
	return r.rl, r.took, err
}

func (f *Failover) JournalPut(e reliability.JournalEntry, now time.Time) error {
	return run0(f, func(s reliability.Store) error { return s.JournalPut(e, now) })
}

// JournalRemove removes key from both stores.
func (f *Failover) JournalRemove(key string, now time.Time) error {
	errLocal := f.Local.JournalRemove(key, now)
	if !f.usePrimary() {
		return errLocal
	}
	if err := f.Primary.JournalRemove(key, now); err != nil {
		f.fail(err)
	} else {
		f.ok()
	}
	return errLocal
}

// JournalClear clears both stores.
func (f *Failover) JournalClear(now time.Time) error {
	errLocal := f.Local.JournalClear(now)
	if !f.usePrimary() {
		return errLocal
	}
	if err := f.Primary.JournalClear(now); err != nil {
		f.fail(err)
	} else {
		f.ok()
	}
	return errLocal
}

// JournalList lists the entries of both stores (the primary's win on a
// shared key).
func (f *Failover) JournalList(now time.Time) ([]reliability.JournalEntry, error) {
	local, errLocal := f.Local.JournalList(now)
	if !f.usePrimary() {
		return local, errLocal
	}
	shared, err := f.Primary.JournalList(now)
	if err != nil {
		f.fail(err)
		return local, errLocal
	}
	f.ok()
	seen := map[string]bool{}
	for _, e := range shared {
		seen[e.Key] = true
	}
	for _, e := range local {
		if !seen[e.Key] {
			shared = append(shared, e)
		}
	}
	return shared, nil
}

// JournalClaim reuses an entry of the file store first (one written during
// an earlier fallback), else claims in the store in use.
func (f *Failover) JournalClaim(signature string, window time.Duration, fresh reliability.JournalEntry, now time.Time) (reliability.JournalEntry, bool, error) {
	if local, err := f.Local.JournalList(now); err == nil {
		var got reliability.JournalEntry
		found := false
		for _, e := range local {
			if e.Signature == signature && now.Sub(e.Created) <= window && (!found || e.Created.After(got.Created)) {
				got, found = e, true
			}
		}
		if found {
			return got, true, nil
		}
	}
	type res struct {
		e      reliability.JournalEntry
		reused bool
	}
	r, err := run(f, func(s reliability.Store) (res, error) {
		e, reused, err := s.JournalClaim(signature, window, fresh, now)
		return res{e, reused}, err
	})
	return r.e, r.reused, err
}

func (f *Failover) CacheGet(key string, fields ...string) (map[string]reliability.CacheEntry, error) {
	return run(f, func(s reliability.Store) (map[string]reliability.CacheEntry, error) {
		return s.CacheGet(key, fields...)
	})
}

func (f *Failover) CachePut(key string, entries map[string]reliability.CacheEntry, ttl time.Duration, now time.Time) error {
	return run0(f, func(s reliability.Store) error { return s.CachePut(key, entries, ttl, now) })
}

var _ reliability.Store = (*Failover)(nil)
