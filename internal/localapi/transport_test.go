package localapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// localClient talks to an emulator through NewTransport, as `--api-url
// local` does: no socket, state in a file.
type localClient struct {
	t  testing.TB
	hc *http.Client
}

func newLocalClient(t testing.TB, cfg Config) *localClient {
	t.Helper()
	tr, err := NewTransport(cfg)
	if err != nil {
		t.Fatalf("NewTransport: %v", err)
	}
	return &localClient{t: t, hc: &http.Client{Transport: tr}}
}

func (c *localClient) try(ctx context.Context, method, path string, body any, hdr ...string) (*resp, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://local"+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+DefaultAPIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return &resp{status: res.StatusCode, header: res.Header, body: data}, nil
}

func (c *localClient) do(method, path string, body any, hdr ...string) *resp {
	c.t.Helper()
	r, err := c.try(context.Background(), method, path, body, hdr...)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func TestNewTransportNeedsStatePath(t *testing.T) {
	if _, err := NewTransport(Config{}); err == nil {
		t.Fatal("no error without StatePath")
	}
}

func TestDefaultStatePath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/tmp/xdg-state")
	p, err := DefaultStatePath()
	if err != nil || p != "/tmp/xdg-state/fibe/local/state.json" {
		t.Fatalf("%q %v", p, err)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/tmp/home-x")
	p, err = DefaultStatePath()
	if err != nil || p != "/tmp/home-x/.local/state/fibe/local/state.json" {
		t.Fatalf("%q %v", p, err)
	}
}

// Two transports on one file behave like two CLI processes: one creates
// and starts a rollout, the other sees both, and sees the rollout finished
// once its time has passed.
func TestTwoTransportsShareState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fibe", "local", "state.json")
	clock := newFakeClock()
	a := newLocalClient(t, Config{StatePath: path, Now: clock.Now})
	b := newLocalClient(t, Config{StatePath: path, Now: clock.Now})

	r := a.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "demo", "playspec_id": "web"}})
	expectStatus(t, r, http.StatusCreated)
	r = b.do("POST", "/api/playgrounds/demo/operations", map[string]any{"action_type": "rollout"})
	expectStatus(t, r, http.StatusAccepted)
	statusURL := r.json(t)["status_url"].(string)
	if st := a.do("GET", statusURL, nil).json(t)["status"]; st != "queued" {
		t.Fatalf("seen by a: %v", st)
	}
	clock.Advance(7 * time.Second)
	done := a.do("GET", statusURL, nil).json(t)
	if done["status"] != "success" || done["result"].(map[string]any)["status"] != "running" {
		t.Fatalf("seen by a: %v", done)
	}
	if st := b.do("GET", "/api/playgrounds/demo", nil).json(t)["status"]; st != "running" {
		t.Fatalf("seen by b: %v", st)
	}
	// Idempotency is shared too.
	body := map[string]any{"playground": map[string]any{"name": "shared", "playspec_id": "web"}}
	expectStatus(t, a.do("POST", "/api/playgrounds", body, "Idempotency-Key", "k-shared"), http.StatusCreated)
	rep := b.do("POST", "/api/playgrounds", body, "Idempotency-Key", "k-shared")
	if rep.status != http.StatusCreated || rep.header.Get("X-Idempotent-Replayed") != "true" {
		t.Fatalf("replay across processes: %d %v", rep.status, rep.header)
	}
	// So are the counters.
	stats := b.do("GET", "/_local/stats", nil).json(t)
	if stats["creates"].(map[string]any)["shared"] != float64(1) || stats["replays"] != float64(1) {
		t.Fatalf("stats %v", stats)
	}

	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v, %v", info.Mode(), err)
	}
	dir, _ := os.Stat(filepath.Dir(path))
	if dir.Mode().Perm() != 0o700 {
		t.Fatalf("state dir mode %v", dir.Mode())
	}
}

// Concurrent writers through separate transports never lose or corrupt.
func TestConcurrentTransportsDoNotCorruptState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	const perClient, clients = 15, 4
	var wg sync.WaitGroup
	errs := make(chan error, clients*perClient)
	for c := 0; c < clients; c++ {
		lc := newLocalClient(t, Config{StatePath: path})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perClient; i++ {
				name := fmt.Sprintf("c%d-n%d", c, i)
				r, err := lc.try(context.Background(), "POST", "/api/playgrounds",
					map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}})
				if err != nil {
					errs <- err
				} else if r.status != http.StatusCreated {
					errs <- fmt.Errorf("%s: %d %s", name, r.status, r.body)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkPlaygrounds(t, path, clients*perClient)
}

// checkPlaygrounds reads the state file as a fresh process would and
// checks it holds want playgrounds with distinct ids and names.
func checkPlaygrounds(t *testing.T, path string, want int) {
	t.Helper()
	var st state
	if err := json.Unmarshal([]byte(readFile(t, path)), &st); err != nil {
		t.Fatalf("state file is not valid JSON: %v", err)
	}
	ids, names := map[int64]bool{}, map[string]bool{}
	for _, pg := range st.Playgrounds {
		if ids[pg.ID] || names[pg.Name] {
			t.Fatalf("duplicate playground %d %s", pg.ID, pg.Name)
		}
		ids[pg.ID], names[pg.Name] = true, true
	}
	if len(st.Playgrounds) != want {
		t.Fatalf("%d playgrounds, want %d", len(st.Playgrounds), want)
	}
	lc := newLocalClient(t, Config{StatePath: path})
	list := lc.do("GET", "/api/playgrounds?per_page=100", nil).json(t)
	if num(list["meta"].(map[string]any)["total"]) != int64(want) {
		t.Fatalf("list total %v", list["meta"])
	}
}

// The helper "process": when re-executed with these variables set, the
// test binary creates playgrounds through its own transport and exits.
const (
	helperStateEnv  = "FIBE_LOCALAPI_HELPER_STATE"
	helperPrefixEnv = "FIBE_LOCALAPI_HELPER_PREFIX"
	helperCountEnv  = "FIBE_LOCALAPI_HELPER_COUNT"
	helperSpeed     = 20
)

func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperStateEnv)
	if path == "" {
		t.Skip("helper process for TestSeparateProcessesShareState")
	}
	n, _ := strconv.Atoi(os.Getenv(helperCountEnv))
	lc := newLocalClient(t, Config{StatePath: path, Speed: helperSpeed})
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s-%d", os.Getenv(helperPrefixEnv), i)
		r := lc.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}})
		if r.status != http.StatusCreated {
			t.Fatalf("%s: %d %s", name, r.status, r.body)
		}
		if r := lc.do("POST", "/api/playgrounds/"+name+"/operations", map[string]any{"action_type": "rollout"}); r.status != http.StatusAccepted {
			t.Fatalf("%s rollout: %d %s", name, r.status, r.body)
		}
	}
}

func TestSeparateProcessesShareState(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "state.json")
	const perProcess = 12
	var cmds []*exec.Cmd
	for _, prefix := range []string{"proc-a", "proc-b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), helperStateEnv+"="+path, helperPrefixEnv+"="+prefix, helperCountEnv+"="+strconv.Itoa(perProcess))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("%s output:\n%s", prefix, out.String())
			}
		})
		cmds = append(cmds, cmd)
	}
	// This process writes at the same time.
	lc := newLocalClient(t, Config{StatePath: path, Speed: helperSpeed})
	for i := 0; i < perProcess; i++ {
		name := fmt.Sprintf("proc-main-%d", i)
		expectStatus(t, lc.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web"}}), http.StatusCreated)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("helper process: %v", err)
		}
	}
	checkPlaygrounds(t, path, 3*perProcess)
	// The helpers' rollouts finish with wall time, seen from here.
	deadline := time.Now().Add(20 * time.Second)
	for {
		list := lc.do("GET", "/api/playgrounds?status=running&per_page=100", nil).json(t)
		if num(list["meta"].(map[string]any)["total"]) == 3*perProcess {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("playgrounds not all running: %v", list["meta"])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTransportFaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	reset := newLocalClient(t, Config{StatePath: path, Chaos: "reset=1"})
	_, err := reset.try(context.Background(), "GET", "/api/me", nil)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reset surfaced as %v", err)
	}

	hang := newLocalClient(t, Config{StatePath: path, Chaos: "commit-then-hang=1:1h"})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = hang.try(ctx, "POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "hung", "playspec_id": "web"}})
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("hang ended with %v after %v", err, time.Since(start))
	}

	short := newLocalClient(t, Config{StatePath: path, Chaos: "commit-then-hang=1:20ms"})
	r := short.do("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "slow", "playspec_id": "web"}})
	expectStatus(t, r, http.StatusCreated) // answered after the hang

	bad := newLocalClient(t, Config{StatePath: path, Chaos: "commit-then-502=1"})
	r = bad.do("POST", "/api/playgrounds/hung/status", nil)
	expectStatus(t, r, http.StatusBadGateway)

	plain := newLocalClient(t, Config{StatePath: path})
	for _, name := range []string{"hung", "slow"} {
		expectStatus(t, plain.do("GET", "/api/playgrounds/"+name, nil), http.StatusOK)
	}
	expectStatus(t, plain.do("POST", "/api/playgrounds", []byte("x")), http.StatusBadRequest)
	expectStatus(t, plain.do("POST", "/api/playgrounds", bytes.Repeat([]byte(" "), maxBodyBytes+1)), http.StatusRequestEntityTooLarge)
}

// POST /_local/chaos through one process reaches the others.
func TestChaosSpecIsShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	a := newLocalClient(t, Config{StatePath: path})
	b := newLocalClient(t, Config{StatePath: path})
	expectStatus(t, b.do("GET", "/api/me", nil), http.StatusOK)
	expectStatus(t, a.do("POST", "/_local/chaos", map[string]any{"spec": "503=1"}), http.StatusOK)
	expectStatus(t, b.do("GET", "/api/me", nil), http.StatusServiceUnavailable)
	c := newLocalClient(t, Config{StatePath: path})
	expectStatus(t, c.do("GET", "/api/me", nil), http.StatusServiceUnavailable)
	expectStatus(t, c.do("POST", "/_local/chaos", map[string]any{"spec": "off"}), http.StatusOK)
	expectStatus(t, a.do("GET", "/api/me", nil), http.StatusOK)
}

func TestCorruptStateIsSetAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs := &logSink{}
	lc := newLocalClient(t, Config{StatePath: path, Logf: logs.Logf})
	r := lc.do("GET", "/api/marquees", nil)
	expectStatus(t, r, http.StatusOK)
	if num(r.json(t)["meta"].(map[string]any)["total"]) != 3 {
		t.Fatalf("not reseeded: %s", r.body)
	}
	if readFile(t, path+".corrupt") != "{not json" {
		t.Fatal("corrupt file not kept")
	}
	if logs.joined() == "" {
		t.Fatal("no log line about the corrupt file")
	}
}
