// Package redistest starts a private redis-server for a test: on
// 127.0.0.1, on a port picked free, with its own temporary directory and no
// persistence, stopped when the test ends. Without the binary the test is
// skipped with one line saying how to install it, except in CI (CI=true),
// where a missing binary fails the run.
package redistest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is one running redis-server.
type Server struct {
	Addr string // 127.0.0.1:port
	cmd  *exec.Cmd
	dir  string
	done chan struct{}
}

// URL is the store URL of database db.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr, db) }

// Binary returns the path of redis-server, or skips t (fails it in CI).
func Binary(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("redis-server is not installed; CI must install it (apt-get install -y redis-server)")
	}
	t.Skip("redis-server not installed: apt-get install redis-server (or brew install redis) to run the Redis tests")
	return ""
}

// Start runs a redis-server for t; extra are more "--name value" arguments
// (e.g. "--requirepass", "secret").
func Start(t testing.TB, extra ...string) *Server {
	t.Helper()
	bin := Binary(t)
	s, err := Launch(bin, extra...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Launch starts redis-server bin outside a test (the benchmark); the
// caller must Stop it.
func Launch(bin string, extra ...string) (*Server, error) {
	var lastErr error
	for try := 0; try < 5; try++ { // a port picked free may be taken before redis binds it
		s, err := start(bin, extra)
		if err == nil {
			return s, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("redis-server did not start: %v", lastErr)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func start(bin string, extra []string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "fibe-redis-")
	if err != nil {
		return nil, err
	}
	args := append([]string{
		"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning",
		"--logfile", filepath.Join(dir, "redis.log"),
	}, extra...)
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	if err := s.waitReady(10 * time.Second); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "redis.log"))
		s.Stop()
		return nil, fmt.Errorf("%v; log: %s", err, strings.TrimSpace(string(log)))
	}
	return s, nil
}

// waitReady waits until the server answers PING (a -NOAUTH answer counts:
// the server is up), or the process exits, or the bound passes.
func (s *Server) waitReady(bound time.Duration) error {
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("redis-server exited")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", s.Addr)
		if err == nil {
			_ = c.SetDeadline(time.Now().Add(time.Second))
			_, err = c.Write([]byte("PING\r\n"))
			var line string
			if err == nil {
				line, err = bufio.NewReader(c).ReadString('\n')
			}
			c.Close()
			cancel()
			if err == nil && (strings.HasPrefix(line, "+PONG") || strings.HasPrefix(line, "-NOAUTH")) {
				return nil
			}
		} else {
			cancel()
		}
		select {
		case <-s.done:
			return fmt.Errorf("redis-server exited")
		case <-time.After(20 * time.Millisecond): // poll interval, not a wait for success
		}
	}
	return fmt.Errorf("no answer on %s within %s", s.Addr, bound)
}

// Stop kills the server, waits for it to exit and removes its directory
// (idempotent).
func (s *Server) Stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
	}
	<-s.done
	os.RemoveAll(s.dir)
}
