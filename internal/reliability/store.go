package reliability

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
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

	mu sync.Mutex // serialises this process's updates; flock covers other processes
}

// NewFileStore returns a FileStore rooted at dir (created 0700 on first write).
func NewFileStore(dir string) *FileStore { return &FileStore{Dir: dir} }

func (s *FileStore) path(key string) string { return filepath.Join(s.Dir, SafeName(key)+".json") }

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
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()

	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	next, err := fn(old)
	if err != nil || next == nil {
		return err
	}
	return writeAtomic(path, next)
}

func (s *FileStore) Delete(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	path := s.path(key)
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // no-op once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
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
