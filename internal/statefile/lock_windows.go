//go:build windows

package statefile

import (
	"os"

	"golang.org/x/sys/windows"
)

// The whole file is locked: LockFileEx takes a byte range, and the lock
// file holds no data, so any fixed range works as long as all agree.
const lockBytes = 1

func lock(f *os.File) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, lockBytes, 0, &ol)
}

func unlock(f *os.File) error {
	var ol windows.Overlapped
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockBytes, 0, &ol)
}
