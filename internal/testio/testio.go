// Package testio holds writers for tests. Only tests import it, so none of
// it is in the binary.
package testio

import (
	"bytes"
	"sync"
)

// Buffer collects what is written to it, for a writer on another goroutine
// (a process's stderr, a client's debug trace) read while it still writes.
// The zero value is ready to use; it is safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
