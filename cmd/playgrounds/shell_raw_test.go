//go:build linux

package playgrounds

import (
	"os"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

func echoes(t *testing.T, f *os.File) bool {
	t.Helper()
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ICANON != 0
}

// The terminal is restored however the session ends: a panic in it, or a
// panic in a goroutine it guards.
func TestRawModeIsRestoredOnPanic(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()

	panicIn := func(session func(guard func()) error) (recovered any) {
		defer func() { recovered = recover() }()
		_ = inRawMode(tty, session)
		return nil
	}
	got := panicIn(func(func()) error {
		if echoes(t, tty) {
			t.Error("the terminal is not raw inside the session")
		}
		panic("boom")
	})
	if got != "boom" || !echoes(t, tty) {
		t.Fatalf("recovered %v; terminal restored %v", got, echoes(t, tty))
	}

	// A guarded goroutine's panic restores the terminal before it
	// crashes the process; here the guard's re-panic is caught to check.
	done := make(chan any)
	_ = inRawMode(tty, func(guard func()) error {
		go func() {
			defer func() { done <- recover() }()
			defer guard()
			panic("in a goroutine")
		}()
		if r := <-done; r != "in a goroutine" {
			t.Errorf("recovered %v", r)
		}
		if !echoes(t, tty) {
			t.Error("the guard did not restore the terminal")
		}
		return nil
	})
}
