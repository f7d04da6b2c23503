package cmd

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
)

// A command tree, its Factory and what they hold are garbage once the
// command is done: nothing registers them in a package-level table (as
// cobra's flag completions would outside a completion request). A process
// that runs command trees over and over (the benchmark's soak) stays small.
func TestCommandTreesAreCollected(t *testing.T) {
	const n = 20
	var gone atomic.Int64
	for range n {
		ios, _, _, _ := iostreams.Test()
		f := factory.New(ios, []string{"pg", "list"})
		NewCmdRoot(f)
		runtime.AddCleanup(f, func(struct{}) { gone.Add(1) }, struct{}{})
	}
	// Cleanups run on their own goroutine after a collection: wait for
	// them, with a bound.
	deadline := time.Now().Add(10 * time.Second)
	for gone.Load() < n && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // lets the cleanup goroutine run
	}
	if got := gone.Load(); got != n {
		t.Fatalf("%d of %d factories collected: something global holds command trees", got, n)
	}
}
