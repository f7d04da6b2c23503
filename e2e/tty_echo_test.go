//go:build linux || darwin

package e2e

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitEchoOff waits (10 s at most) until the terminal at path no longer
// echoes what is typed, as a hidden prompt leaves it.
func waitEchoOff(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tio, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
		if err != nil {
			t.Fatalf("termios of %s: %v", path, err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the terminal still echoes: the prompt did not hide the input")
}

// echoOn reports whether the terminal at path echoes input.
func echoOn(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	if err != nil {
		t.Fatalf("termios of %s: %v", path, err)
	}
	return tio.Lflag&unix.ECHO != 0
}
