package statefile

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Two holders never overlap: a second Lock blocks until the first
// releases. (flock locks conflict between open file descriptions, so this
// holds within one process as it does across processes.)
func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	release, err := Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		released bool
		order    []string
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r2, err := Lock(path)
		if err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		if !released {
			order = append(order, "second acquired while first held")
		}
		mu.Unlock()
		r2()
	}()
	select {
	case <-done:
		t.Fatal("second Lock returned while the lock was held")
	case <-time.After(100 * time.Millisecond):
	}
	mu.Lock()
	released = true
	mu.Unlock()
	release()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("second Lock did not return after release")
	}
	if len(order) != 0 {
		t.Fatal(order)
	}
}

func TestWriteAtomicReplacesWithMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	for _, body := range []string{`{"a":1}`, `{"b":2}`} {
		if err := WriteAtomic(path, []byte(body), 0o600, true); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != body {
			t.Fatalf("read %q, %v; want %q", got, err, body)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}
