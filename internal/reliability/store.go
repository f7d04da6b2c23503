package reliability

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/statefile"
)

// Store keeps the state shared by invocations: breakers, the rate ledger,
// the marquee cache and the outcome journal. Its methods are transitions,
// not reads and writes: each one is atomic in the store, so that processes
// sharing it (on one machine with a FileStore, on a fleet with a Redis
// store) never interleave inside one. A local store runs a transition as a
// locked read-modify-write in Go (LocalStore); a Redis store as one Lua
// script. No transition waits on the network on behalf of a request: each
// is a few microseconds of work in the store.
//
// key is the logical record ("breakers-<host>", "ratelimit-<host>",
// "marquees-<host>"); the journal has one record of its own for every API.
type Store interface {
	// Describe names the store for people, secrets masked ("file store
	// DIR", "redis://host:6379/0").
	Describe() string

	// BreakerGet returns the record of resource without changing it; a
	// resource with no record is a fresh closed breaker (generation 1).
	BreakerGet(key, resource string) (gobreaker.SharedState, error)
	// BreakerList returns every record of key.
	BreakerList(key string) (map[string]gobreaker.SharedState, error)
	// BreakerAdmit applies the time-driven transitions, then admits one
	// attempt or denies it. Half-open, admission takes one of p.Probes
	// slots, leased for p.ProbeLease: a probe whose process died frees it
	// when the lease runs out.
	BreakerAdmit(key, resource string, p BreakerParams, now time.Time) (BreakerAdmission, error)
	// BreakerRecord records the outcome of an attempt admitted in
	// generation: a success or a failure counts (and may close or open the
	// breaker); an ignored answer releases its half-open slot. An outcome
	// of an older generation changes nothing.
	BreakerRecord(key, resource string, generation uint64, o Outcome, p BreakerParams, now time.Time) (BreakerRecorded, error)
	// BreakerReset forgets resource, or every breaker of key when resource is "".
	BreakerReset(key, resource string) error

	// LedgerLoad returns the stored view of the rate-limit window.
	LedgerLoad(key string) (RateLimit, error)
	// LedgerReserve folds view into the stored one, then, when take is set
	// and the window in force has a slot left, takes it; it stores the
	// result and returns it with whether a slot was taken. Without take,
	// view is an answer's and replaces a stored window that differs
	// (reserveRateLimit); implausible windows are dropped either way.
	LedgerReserve(key string, view RateLimit, take bool, now time.Time) (RateLimit, bool, error)
	// LedgerReset forgets the stored view of the rate-limit window.
	LedgerReset(key string) error

	// JournalPut records e by e.Key, replacing an entry with the same key.
	JournalPut(e JournalEntry, now time.Time) error
	// JournalRemove drops the entry of key, if any.
	JournalRemove(key string, now time.Time) error
	// JournalClear drops every entry.
	JournalClear(now time.Time) error
	// JournalList returns the entries younger than JournalMaxAge, in no order.
	JournalList(now time.Time) ([]JournalEntry, error)
	// JournalClaim returns the newest entry for signature created within
	// window, or records fresh and returns it (reused false).
	JournalClaim(signature string, window time.Duration, fresh JournalEntry, now time.Time) (JournalEntry, bool, error)

	// CacheGet returns the entries of fields that key holds (absent ones
	// are missing from the map, whatever their age).
	CacheGet(key string, fields ...string) (map[string]CacheEntry, error)
	// CachePut records entries; entries older than ttl may be dropped.
	CachePut(key string, entries map[string]CacheEntry, ttl time.Duration, now time.Time) error
}

// BreakerParams are the policy numbers a breaker transition needs.
type BreakerParams struct {
	Threshold   int           // consecutive failures that open a closed breaker
	Probes      int           // attempts admitted half-open
	Successes   int           // successes that close a half-open breaker
	OpenTimeout time.Duration // how long it stays open
	ProbeLease  time.Duration // how long a half-open slot is held without an answer
}

// BreakerAdmission is the answer of Store.BreakerAdmit.
type BreakerAdmission struct {
	Allowed bool
	Record  gobreaker.SharedState // the record after the transition
	Moves   []BreakerMove         // state changes it made
}

// BreakerRecorded is the answer of Store.BreakerRecord.
type BreakerRecorded struct {
	State gobreaker.State
	Moves []BreakerMove
}

// BreakerMove is one state change of a breaker.
type BreakerMove struct{ From, To gobreaker.State }

// CacheEntry is one attribution: what marquee a playground or marquee id
// belongs to, and when that was learned.
type CacheEntry struct {
	Marquee string    `json:"marquee"`
	At      time.Time `json:"at"`
}

// Records is a keyed byte store whose Update is an atomic
// read-modify-write: no other Update of the same key, in this process or
// another, runs between its read and its write. FileStore and MemoryStore
// are Records; LocalStore builds the transitions on top of one.
type Records interface {
	// Load returns the current bytes, nil when there are none.
	Load(key string) ([]byte, error)
	// Update calls fn with the current bytes (nil when none) and stores what
	// it returns. A nil result with a nil error leaves the record unchanged.
	// fn must be quick and never do network I/O: other processes wait on it.
	Update(key string, fn func(old []byte) ([]byte, error)) error
	// Delete removes the record.
	Delete(key string) error
}

// MemoryStore is a Store for one process (no state directory configured).
type MemoryStore struct {
	*LocalStore
	mu   sync.Mutex
	data map[string][]byte
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	m := &MemoryStore{data: map[string][]byte{}}
	m.LocalStore = newLocalStore(m, "memory (this process only)")
	return m
}

func (m *MemoryStore) Load(key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]byte(nil), m.data[key]...), nil
}

func (m *MemoryStore) Update(key string, fn func([]byte) ([]byte, error)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	var old []byte
	if v, ok := m.data[key]; ok {
		old = append([]byte(nil), v...)
	}
	next, err := fn(old)
	if err != nil || next == nil {
		return err
	}
	m.data[key] = append([]byte(nil), next...)
	return nil
}

func (m *MemoryStore) Delete(key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.data, key)
	return nil
}

// FileStore keeps each key in its own file under Dir (mode 0600). Updates
// hold an flock on a sibling ".lock" file only for the read-modify-write and
// replace the record atomically (write to a temp file, then rename), so a
// reader never sees half a file and a crash never leaves one.
type FileStore struct {
	*LocalStore
	Dir string

	mu    sync.Mutex // serialises this process's updates; flock covers other processes
	paths sync.Map   // key → file path, since every request reads a few
}

// NewFileStore returns a FileStore rooted at dir (created 0700 on first write).
func NewFileStore(dir string) *FileStore {
	s := &FileStore{Dir: dir}
	s.LocalStore = newLocalStore(s, "file store "+dir)
	return s
}

func (s *FileStore) path(key string) string {
	if p, ok := s.paths.Load(key); ok {
		return p.(string)
	}
	p := filepath.Join(s.Dir, SafeName(key)+".json")
	s.paths.Store(key, p)
	return p
}

func (s *FileStore) Load(key string) ([]byte, error) {
	b, err := os.ReadFile(s.path(key))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func (s *FileStore) Update(key string, fn func([]byte) ([]byte, error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	path := s.path(key)
	unlock, err := statefile.Lock(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()

	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	next, err := fn(old)
	if err != nil || next == nil || bytes.Equal(next, old) {
		return err
	}
	// Not flushed to disk: after a crash a lost or torn file reads as
	// "closed, no wait", which is the safe default, and every request pays
	// for this write.
	return statefile.WriteAtomic(path, next, 0o600, false)
}

func (s *FileStore) Delete(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := s.path(key)
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := statefile.Lock(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// SafeName turns a key such as "breakers-127.0.0.1:7878" into a file name.
func SafeName(key string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		default:
			return '_'
		}
	}, key)
}

// Prefetcher is implemented by stores whose reads cost a round trip: told
// the keys an invocation is about to read, the store may fetch them all
// with its first read.
type Prefetcher interface {
	Prefetch(keys ...string)
}

// FleetStore is implemented by stores shared by many machines (Redis). On
// such a store the rate ledger reserves every slot of a known window in the
// store, since a fleet can spend a whole window between two answers; and a
// success of an attempt admitted on a closed breaker with no failures is
// not read back, since every read is a round trip.
type FleetStore interface {
	SharedByFleet() bool
}

// sharedByFleet reports whether store is shared by a fleet.
func sharedByFleet(store Store) bool {
	f, ok := store.(FleetStore)
	return ok && f.SharedByFleet()
}

// Prefetch passes keys on to store when it wants them.
func Prefetch(store Store, keys ...string) {
	if p, ok := store.(Prefetcher); ok {
		p.Prefetch(keys...)
	}
}
