package filelock

import (
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Two holders never overlap: a second Acquire blocks until the first
// releases. (flock locks conflict between open file descriptions, so this
// holds within one process as it does across processes.)
func TestAcquireExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	release, err := Acquire(path)
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
		r2, err := Acquire(path)
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
		t.Fatal("second Acquire returned while the lock was held")
	case <-time.After(100 * time.Millisecond):
	}
	mu.Lock()
	released = true
	mu.Unlock()
	release()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("second Acquire did not return after release")
	}
	if len(order) != 0 {
		t.Fatal(order)
	}
}
