// Package statefile holds the two file primitives behind every piece of
// state fibe shares between processes (breakers, the rate ledger, the
// local emulator's world, credentials): an exclusive lock around a
// read-modify-write, and an atomic replace, so a reader sees the old file
// or the new one, never half of one. Locks are held only around that
// read-modify-write, never across a network call.
package statefile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Lock opens (creating it if needed, mode 0600) the lock file at path and
// blocks until it holds an exclusive lock on it. release unlocks and closes.
func Lock(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(path), err)
	}
	return func() {
		_ = unlock(f)
		f.Close()
	}, nil
}
