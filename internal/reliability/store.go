package reliability

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fibegg/fibe/internal/statefile"
)

// Store keeps small shared records (breakers, rate ledger, marquee cache)
// by key. Update is an atomic read-modify-write: no other Update of the same
// key, in this process or another, runs between its read and its write.
// fn must be quick and must never do network I/O, because other processes
// wait on it. A Redis store can implement this with WATCH/MULTI or a script.
type Store interface {
	// Load returns the current bytes, nil when there are none.
	Load(key string) ([]byte, error)
	// Update calls fn with the current bytes (nil when none) and stores what
	// it returns. A nil result with a nil error leaves the record unchanged.
	Update(key string, fn func(old []byte) ([]byte, error)) error
	// Delete removes the record.
	Delete(key string) error
}

// MemoryStore is a Store for one process (no state directory configured).
type MemoryStore struct {
	mu   sync.Mutex
	data map[string][]byte
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{data: map[string][]byte{}} }

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
	Dir string

	mu    sync.Mutex // serialises this process's updates; flock covers other processes
	paths sync.Map   // key → file path, since every request reads a few
}

// NewFileStore returns a FileStore rooted at dir (created 0700 on first write).
func NewFileStore(dir string) *FileStore { return &FileStore{Dir: dir} }

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
