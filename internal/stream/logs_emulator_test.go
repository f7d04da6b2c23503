package stream

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/testio"
)

// emulatorStream runs the local API emulator on 127.0.0.1 with one
// running playground, "pv" on marquee prod-eu.
func emulatorStream(t *testing.T) (*localapi.Server, *client.Client, *testio.Buffer) {
	t.Helper()
	emu, err := localapi.New(localapi.Config{Seed: 3, Speed: 50})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	t.Cleanup(func() {
		emu.Close()
		srv.Close()
	})
	trace := &testio.Buffer{}
	c, err := client.New(client.Options{BaseURL: srv.URL, APIKey: localapi.DefaultAPIKey, Debug: trace,
		Policy: reliability.Policy{BaseDelay: 2 * time.Millisecond, MaxDelay: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, _, err := c.Playgrounds.Create(ctx, map[string]any{"name": "pv", "playspec_id": "web", "marquee_id": "prod-eu"},
		client.MutationOptions{}, client.WaitOptions{}); err != nil {
		t.Fatalf("create playground: %v", err)
	}
	return emu, c, trace
}

// followEmulator streams "pv" until stop says enough.
func followEmulator(t *testing.T, c *client.Client, opts FollowOptions, stop func([]LogLine) bool) ([]LogLine, error) {
	t.Helper()
	return followRef(t, c, "pv", opts, stop)
}

func TestEmulatorExpiryBurstRecoversOnce(t *testing.T) {
	emu, c, trace := emulatorStream(t)
	lines, err := followEmulator(t, c, FollowOptions{Tail: 5}, func(l []LogLine) bool {
		if len(l) == 5 {
			if err := emu.SetChaos("cable-expire-burst=100"); err != nil {
				t.Errorf("set chaos: %v", err)
			}
		}
		// Lines already on their way when the fault was set arrive before
		// it bites: go on until the recovery has delivered lines too.
		return len(l) >= 8 && strings.Count(trace.String(), "stream: <-- 101 connected") >= 2 &&
			strings.Count(trace.String(), "stream: subscription confirmed") >= 2
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	out := trace.String()
	if n := strings.Count(out, "stream: <-- 101 connected"); n != 2 {
		t.Fatalf("%d connections, want 2 (one recovery):\n%s", n, out)
	}
	if !strings.Contains(out, "(1 expiry recoveries") {
		t.Fatalf("trace:\n%s", out)
	}
}

func TestEmulatorDropsResumeWithoutGapsOrDuplicates(t *testing.T) {
	emu, c, trace := emulatorStream(t)
	if err := emu.SetChaos("cable-drop=0.25"); err != nil {
		t.Fatal(err)
	}
	// The backlog replays at once, dropped every few lines; each reconnect
	// resumes after the last line printed.
	lines, err := followEmulator(t, c, FollowOptions{Tail: 20}, atLeast(20))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if n := strings.Count(trace.String(), "stream: connection dropped"); n < 2 {
		t.Fatalf("%d drops; the fault did not bite:\n%s", n, trace.String())
	}
}

func TestEmulatorPersistentExpiryAndReject(t *testing.T) {
	emu, c, _ := emulatorStream(t)
	if err := emu.SetChaos("cable-expire=1"); err != nil {
		t.Fatal(err)
	}
	_, err := followEmulator(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, client.CodeSessionExpired)

	if err := emu.SetChaos("cable-reject=1"); err != nil {
		t.Fatal(err)
	}
	_, err = followEmulator(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, client.CodeForbidden)
}
