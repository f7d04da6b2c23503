package local

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// serve runs serveRun on a free loopback port until the test cancels it;
// it returns the URL and the run's result.
func serve(t *testing.T, opts *ServeOptions) (url string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	opts.Addr = "127.0.0.1:0"
	opts.Ready = func(u string) { ready <- u }
	done := make(chan error, 1)
	go func() { done <- serveRun(ctx, opts) }()
	select {
	case url = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended before listening: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("serve did not listen within 10s")
	}
	return url, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop within 10s")
			return nil
		}
	}
}

func get(t *testing.T, url, key string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// The server says where it listens and with which key, answers that key
// only, and stops cleanly when cancelled.
func TestServeAnswersItsKeyAndStops(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	url, stop := serve(t, &ServeOptions{IO: ios, APIKey: "fibe_test_key_1", Players: 2, Speed: 1, StatusURL: "default", Chaos: "503=0", Seed: 3})
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url %q", url)
	}
	want := "Local Fibe API listening on " + url + "\nAPI key: fibe_test_key_1\nexport FIBE_API_URL=" + url +
		" FIBE_API_KEY=fibe_test_key_1\nKey of user B: fibe_test_key_1_player2\nKey of admin: fibe_test_key_1_admin\nChaos: 503=0 (seed 3)\n"
	if out.String() != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
	if code := get(t, url, "fibe_test_key_1"); code != http.StatusOK {
		t.Errorf("GET /api/me with the key: %d", code)
	}
	for _, key := range []string{"fibe_test_key_1_player2", "fibe_test_key_1_admin"} {
		if code := get(t, url, key); code != http.StatusOK {
			t.Errorf("GET /api/me with %s: %d", key, code)
		}
	}
	if code := get(t, url, "fibe_other"); code != http.StatusUnauthorized {
		t.Errorf("GET /api/me with another key: %d", code)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "Device logins (auth login --web) are approved at "+url+"/cli/device.\nPress Ctrl-C to stop.\nStopped.\n" {
		t.Errorf("stderr %q", errOut)
	}
}

// With --json, stdout is one document: the URL and the key (the
// emulator's well-known key by default).
func TestServeJSON(t *testing.T) {
	ios, _, out, _ := iostreams.Test()
	ios.SetJSON(true)
	url, stop := serve(t, &ServeOptions{IO: ios, Speed: 1, StatusURL: "alt"})
	var info ServeInfo
	if err := json.Unmarshal(out.Bytes(), &info); err != nil || info.URL != url || info.APIKey == "" {
		t.Errorf("stdout %s: %+v (%v)", out, info, err)
	}
	if code := get(t, url, info.APIKey); code != http.StatusOK {
		t.Errorf("GET /api/me with the printed key: %d", code)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

// Bad flags are usage errors, checked before anything listens.
func TestServeBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--speed", "0"}, "--speed must be positive"},
		{[]string{"--rate-limit", "-1"}, "--rate-limit must be 0 or more"},
		{[]string{"--addr", "7878"}, `invalid --addr "7878"`},
	} {
		ios, _, _, _ := iostreams.Test()
		ran := false
		cmd := NewCmdServe(factory.New(ios, nil), func(context.Context, *ServeOptions) error { ran = true; return nil })
		cmd.SetArgs(c.args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), c.want) || ran {
			t.Errorf("%q: %v (exit %d, ran %v), want %q", c.args, err, output.ExitCode(err), ran, c.want)
		}
	}
	// A chaos spec the emulator cannot read is a usage error too.
	ios, _, out, _ := iostreams.Test()
	err := serveRun(context.Background(), &ServeOptions{IO: ios, Addr: "127.0.0.1:0", Speed: 1, StatusURL: "default", Chaos: "gremlins"})
	if output.ExitCode(err) != output.ExitUsage || out.Len() != 0 {
		t.Errorf("--chaos gremlins: %v (exit %d), stdout %q", err, output.ExitCode(err), out)
	}
}
