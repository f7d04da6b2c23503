package localapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/statefile"
)

// store gives one request at a time exclusive access to the state. fn
// returns what it changed, which says whether and how the state is saved.
type store interface {
	update(now time.Time, fn func(st *state) change) error
}

// change is what a function given the state did to it.
type change int

const (
	// unchanged: nothing to save.
	unchanged change = iota
	// changedCheap: counters and statuses a read settles from the clock
	// (rate windows, stats, a rollout that finished in the meantime). The
	// file is replaced but not flushed to disk: other processes see the
	// change at once, and only a crash of the machine could lose it, which
	// the next request settles again. A read stays a read, without the
	// cost of a flush.
	changedCheap
	// changedDurable: a mutation (a create, an action, an idempotency
	// record), flushed to disk before the answer.
	changedDurable
)

// memStore keeps the state in memory, for a long-running server.
type memStore struct {
	mu sync.Mutex
	st *state
}

func newMemStore() *memStore { return &memStore{} }

func (m *memStore) update(now time.Time, fn func(*state) change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.st == nil {
		m.st = seedState(now)
	}
	fn(m.st)
	return nil
}

// fileStore keeps the state in a JSON file shared by processes. A request
// holds an exclusive flock on a sibling lock file for its whole
// read-handle-write cycle (never across an injected hang or delay), and the
// file is replaced atomically, so a reader never sees half a write.
type fileStore struct {
	path string
	logf func(string, ...any)
	mu   sync.Mutex // flock is per open file; this orders goroutines of one process
}

func newFileStore(path string, logf func(string, ...any)) *fileStore {
	return &fileStore{path: path, logf: logf}
}

func (f *fileStore) update(now time.Time, fn func(*state) change) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return fmt.Errorf("localapi: state directory: %w", err)
	}
	release, err := statefile.Lock(f.path + ".lock")
	if err != nil {
		return fmt.Errorf("localapi: state lock: %w", err)
	}
	defer release()

	st, fresh, err := f.load(now)
	if err != nil {
		return err
	}
	c := fn(st)
	if fresh {
		c = changedDurable
	}
	if c == unchanged {
		return nil
	}
	return f.save(st, c == changedDurable)
}

// load reads the state; a missing file is seeded, and a corrupt one is set
// aside (state.json.corrupt) and reseeded rather than wedging every command.
func (f *fileStore) load(now time.Time) (*state, bool, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return seedState(now), true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("localapi: read state: %w", err)
	}
	st := &state{}
	if err := json.Unmarshal(data, st); err != nil || st.Version != stateVersion {
		f.logf("localapi: state file %s unreadable or from another version; starting afresh", filepath.Base(f.path))
		_ = os.Rename(f.path, f.path+".corrupt")
		return seedState(now), true, nil
	}
	st.normalize()
	return st, false, nil
}

func (f *fileStore) save(st *state, durable bool) error {
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("localapi: encode state: %w", err)
	}
	if err := statefile.WriteAtomic(f.path, data, 0o600, durable); err != nil {
		return fmt.Errorf("localapi: write state: %w", err)
	}
	return nil
}

// DefaultStatePath is where in-process mode keeps its state:
// $XDG_STATE_HOME/fibe/local/state.json, or ~/.local/state/fibe/local/state.json.
func DefaultStatePath() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("localapi: no state directory: %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "fibe", "local", "state.json"), nil
}
