package client

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestHelperSlowRequest runs in a child process: one request through a
// client on the shared state dir.
func TestHelperSlowRequest(t *testing.T) {
	url, dir := os.Getenv("FIBE_TEST_HELPER_URL"), os.Getenv("FIBE_TEST_HELPER_STATE")
	if url == "" {
		t.Skip("helper process only")
	}
	c, err := New(Options{BaseURL: url, APIKey: testKey, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Marquees.Get(context.Background(), "prod-eu")
	fmt.Println("HELPER DONE", err)
}

// Two processes on one breaker: while process A's request is in flight
// (the server holds it), process B is admitted, sent and answered. No
// cross-process lock is held across a network call.
func TestTwoProcessesNeverWaitOnEachOthersRequest(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	release := make(chan struct{})
	var first atomic.Bool
	srv, rec := serve(t, func(w http.ResponseWriter, r *http.Request, s seen) {
		if first.CompareAndSwap(false, true) {
			select { // process A's request: held until B is done
			case <-release:
			case <-time.After(15 * time.Second):
			}
		}
		replyJSON(w, 200, map[string]any{"id": 1, "name": "prod-eu"})
	})
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSlowRequest$", "-test.v")
	cmd.Env = append(os.Environ(), "FIBE_TEST_HELPER_URL="+srv.URL, "FIBE_TEST_HELPER_STATE="+dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	waitFor(t, "process A's request to reach the server", func() bool { return rec.count() == 1 })

	b, err := New(Options{BaseURL: srv.URL, APIKey: testKey, StateDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	started := time.Now()
	if _, _, err := b.Marquees.Get(ctx, "prod-eu"); err != nil {
		t.Fatalf("process B blocked or failed while A's request was in flight: %v", err)
	}
	if rec.count() != 2 {
		t.Fatalf("server saw %d requests", rec.count())
	}
	t.Logf("B answered in %s while A was still waiting", time.Since(started))
	close(release)
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "HELPER DONE <nil>") {
		t.Fatalf("process A: %v\n%s", err, out.String())
	}
}
