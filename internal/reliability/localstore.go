package reliability

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"
)

// LocalStore is a Store whose transitions run in Go, each as one atomic
// Update of its Records (under the file lock for a FileStore). The
// transitions themselves are the functions of breaker.go, ledger.go and
// journal.go, which a Redis store mirrors in Lua.
type LocalStore struct {
	rec  Records
	name string

	// The last breaker record read per key and its decoding, reused while
	// the bytes are the same. The decoded maps are shared and never modified.
	viewMu sync.Mutex
	views  map[string]breakerView
}

type breakerView struct {
	data []byte
	f    breakerFile
}

// newLocalStore returns the Store over r; name is what Describe says.
func newLocalStore(r Records, name string) *LocalStore {
	return &LocalStore{rec: r, name: name, views: map[string]breakerView{}}
}

// Describe names the store.
func (s *LocalStore) Describe() string { return s.name }

// breakers reads key's breakers without the lock (atomic replaces make the
// read consistent); the result must not be modified.
func (s *LocalStore) breakers(key string) (breakerFile, error) {
	data, err := s.rec.Load(key)
	if err != nil {
		return nil, err
	}
	s.viewMu.Lock()
	defer s.viewMu.Unlock()
	if v, ok := s.views[key]; ok && bytes.Equal(v.data, data) {
		return v.f, nil
	}
	f := decodeBreakers(data)
	s.views[key] = breakerView{data: data, f: f}
	return f, nil
}

func (s *LocalStore) BreakerGet(key, resource string) (gobreaker.SharedState, error) {
	f, err := s.breakers(key)
	if err != nil {
		return gobreaker.SharedState{}, err
	}
	if r := f[resource]; r != nil {
		return *r, nil
	}
	return freshBreaker(), nil
}

func (s *LocalStore) BreakerList(key string) (map[string]gobreaker.SharedState, error) {
	f, err := s.breakers(key)
	if err != nil {
		return nil, err
	}
	out := make(map[string]gobreaker.SharedState, len(f))
	for res, r := range f {
		out[res] = *r
	}
	return out, nil
}

func (s *LocalStore) updateBreakers(key string, fn func(f breakerFile)) error {
	return s.rec.Update(key, func(old []byte) ([]byte, error) {
		f := decodeBreakers(old)
		fn(f)
		return json.MarshalIndent(f, "", "  ")
	})
}

func (s *LocalStore) BreakerAdmit(key, resource string, p BreakerParams, now time.Time) (BreakerAdmission, error) {
	var a BreakerAdmission
	err := s.updateBreakers(key, func(f breakerFile) {
		r := breakerRecord(f, resource)
		a.Allowed, a.Moves = admitBreaker(r, p, now)
		a.Record = *r
	})
	return a, err
}

func (s *LocalStore) BreakerRecord(key, resource string, generation uint64, o Outcome, p BreakerParams, now time.Time) (BreakerRecorded, error) {
	var out BreakerRecorded
	err := s.updateBreakers(key, func(f breakerFile) {
		r := breakerRecord(f, resource)
		out.Moves = recordBreaker(r, generation, o, p, now)
		out.State = r.State
	})
	return out, err
}

func (s *LocalStore) BreakerReset(key, resource string) error {
	if resource == "" {
		return s.rec.Delete(key)
	}
	return s.updateBreakers(key, func(f breakerFile) { delete(f, resource) })
}

func (s *LocalStore) LedgerLoad(key string) (RateLimit, error) {
	data, err := s.rec.Load(key)
	if err != nil {
		return RateLimit{}, err
	}
	return decodeRateLimit(data), nil
}

func (s *LocalStore) LedgerReset(key string) error { return s.rec.Delete(key) }

func (s *LocalStore) LedgerReserve(key string, view RateLimit, take bool, now time.Time) (RateLimit, bool, error) {
	var (
		got  RateLimit
		took bool
	)
	err := s.rec.Update(key, func(old []byte) ([]byte, error) {
		got, took = reserveRateLimit(decodeRateLimit(old), view, take, now)
		return json.Marshal(got)
	})
	return got, took, err
}

func (s *LocalStore) updateJournal(now time.Time, fn func(f journalFile) bool) error {
	return s.rec.Update(journalKey, func(old []byte) ([]byte, error) {
		f := decodeJournal(old, now)
		if !fn(f) {
			return nil, nil
		}
		return json.Marshal(f)
	})
}

func (s *LocalStore) JournalPut(e JournalEntry, now time.Time) error {
	return s.updateJournal(now, func(f journalFile) bool { f[e.Key] = e; return true })
}

func (s *LocalStore) JournalRemove(key string, now time.Time) error {
	return s.updateJournal(now, func(f journalFile) bool {
		if _, ok := f[key]; !ok {
			return false
		}
		delete(f, key)
		return true
	})
}

func (s *LocalStore) JournalClear(now time.Time) error {
	return s.updateJournal(now, func(f journalFile) bool {
		clear(f)
		return true
	})
}

func (s *LocalStore) JournalList(now time.Time) ([]JournalEntry, error) {
	data, err := s.rec.Load(journalKey)
	if err != nil {
		return nil, err
	}
	f := decodeJournal(data, now)
	out := make([]JournalEntry, 0, len(f))
	for _, e := range f {
		out = append(out, e)
	}
	return out, nil
}

func (s *LocalStore) JournalClaim(signature string, window time.Duration, fresh JournalEntry, now time.Time) (JournalEntry, bool, error) {
	got, reused := fresh, false
	err := s.updateJournal(now, func(f journalFile) bool {
		got, reused = claimJournal(f, signature, window, fresh, now)
		return !reused
	})
	return got, reused, err
}

type cacheFile map[string]CacheEntry

func decodeCache(data []byte) cacheFile {
	f := cacheFile{}
	if len(data) > 0 && json.Unmarshal(data, &f) != nil {
		return cacheFile{} // a corrupt (or older) cache is an empty one
	}
	return f
}

func (s *LocalStore) CacheGet(key string, fields ...string) (map[string]CacheEntry, error) {
	data, err := s.rec.Load(key)
	if err != nil {
		return nil, err
	}
	f := decodeCache(data)
	out := make(map[string]CacheEntry, len(fields))
	for _, k := range fields {
		if e, ok := f[k]; ok {
			out[k] = e
		}
	}
	return out, nil
}

func (s *LocalStore) CachePut(key string, entries map[string]CacheEntry, ttl time.Duration, now time.Time) error {
	if cur, err := s.CacheGet(key, keys(entries)...); err == nil {
		fresh := true
		for k, e := range entries {
			if old, ok := cur[k]; !ok || CacheStale(old, e, ttl) {
				fresh = false
			}
		}
		if fresh {
			return nil // nothing new: no write
		}
	}
	return s.rec.Update(key, func(old []byte) ([]byte, error) {
		f := decodeCache(old)
		for k, e := range f { // keep the record small
			if now.Sub(e.At) > ttl {
				delete(f, k)
			}
		}
		for k, e := range entries {
			f[k] = e
		}
		return json.Marshal(f)
	})
}

// CacheStale reports whether an entry learned now (next) is worth writing
// over old: another marquee, or old is past half its TTL.
func CacheStale(old, next CacheEntry, ttl time.Duration) bool {
	return old.Marquee != next.Marquee || next.At.Sub(old.At) >= ttl/2
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
