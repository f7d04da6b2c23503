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
// error, a wrong-type key, ...), and from then on, for the rest of the
// invocation, to Local, the file store. Warn is told once. The command runs
// normally either way: the store never blocks the user.
//
// The journal is read from both: entries written to the file store during
// a fallback are seen (listed, claimed, removed) by later invocations
// whichever store they use, so a fallback never hides an unfinished
// mutation.
type Failover struct {
	Primary reliability.Store
	Local   reliability.Store
	Warn    func(err error)

	down atomic.Bool
	once sync.Once
}

// Down reports whether the primary store failed in this invocation.
func (f *Failover) Down() bool { return f.down.Load() }

func (f *Failover) fail(err error) {
	f.down.Store(true)
	f.once.Do(func() {
		if f.Warn != nil {
			f.Warn(err)
		}
	})
}

func run[T any](f *Failover, fn func(reliability.Store) (T, error)) (T, error) {
	if !f.down.Load() {
		v, err := fn(f.Primary)
		if err == nil {
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
	if f.down.Load() {
		return errLocal
	}
	if err := f.Primary.JournalRemove(key, now); err != nil {
		f.fail(err)
	}
	return errLocal
}

// JournalClear clears both stores.
func (f *Failover) JournalClear(now time.Time) error {
	errLocal := f.Local.JournalClear(now)
	if f.down.Load() {
		return errLocal
	}
	if err := f.Primary.JournalClear(now); err != nil {
		f.fail(err)
	}
	return errLocal
}

// JournalList lists the entries of both stores (the primary's win on a
// shared key).
func (f *Failover) JournalList(now time.Time) ([]reliability.JournalEntry, error) {
	local, errLocal := f.Local.JournalList(now)
	if f.down.Load() {
		return local, errLocal
	}
	shared, err := f.Primary.JournalList(now)
	if err != nil {
		f.fail(err)
		return local, errLocal
	}
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
