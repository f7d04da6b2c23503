package reliability

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

// TestHelperAllowOnce runs in a child process: one admission, printed.
func TestHelperAllowOnce(t *testing.T) {
	dir := os.Getenv("FIBE_TEST_BREAKER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	b := NewBreakers(NewFileStore(dir), "api.example", Policy{}, nil)
	if _, err := b.Allow(res); err != nil {
		fmt.Println("RESULT refused")
		return
	}
	fmt.Println("RESULT admitted")
}

// Half-open admits at most 2 probes even when the callers are separate
// processes racing on the state file.
func TestHalfOpenAdmitsTwoProbesAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	// Open the breaker "a minute ago" so it is half-open on the real clock now.
	clock := reliabilitytest.NewClock(time.Now().Add(-time.Minute))
	b := NewBreakers(NewFileStore(dir), "api.example", Policy{}, clock)
	fail(t, b, 5)

	const procs = 6
	results := make([]string, procs)
	var wg sync.WaitGroup
	for i := 0; i < procs; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperAllowOnce$", "-test.v")
			cmd.Env = append(os.Environ(), "FIBE_TEST_BREAKER_DIR="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("helper %d: %v\n%s", i, err, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(line, "RESULT ") {
					results[i] = strings.TrimPrefix(line, "RESULT ")
				}
			}
		}(i)
	}
	wg.Wait()
	admitted := 0
	for _, r := range results {
		if r == "admitted" {
			admitted++
		} else if r != "refused" {
			t.Fatalf("helper results %v", results)
		}
	}
	if admitted != 2 {
		t.Fatalf("%d processes admitted while half-open, want 2 (%v)", admitted, results)
	}
}
