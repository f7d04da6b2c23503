// Package filelock takes exclusive advisory locks on files, so that separate
// fibe processes can read-modify-write one state file without corrupting
// it. Locks are held only around that read-modify-write, never across a
// network call.
package filelock

import (
	"fmt"
	"os"
	"path/filepath"
)

// Acquire opens (creating it if needed, mode 0600) the lock file at path and
// blocks until it holds an exclusive lock on it. release unlocks and closes.
func Acquire(path string) (release func(), err error) {
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
