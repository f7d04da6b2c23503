package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// errorDoc is the JSON error of docs/contract.md §9.
type errorDoc struct {
	Error struct {
		Code           string         `json:"code"`
		Message        string         `json:"message"`
		Status         int            `json:"status"`
		RequestID      string         `json:"request_id"`
		Details        map[string]any `json:"details"`
		Retryable      bool           `json:"retryable"`
		IdempotencyKey string         `json:"idempotency_key"`
	} `json:"error"`
}

// expectExit runs fibe and checks the exit code and the one-line error.
func expectExit(t *testing.T, w *world, code int, wantCode string, args ...string) result {
	t.Helper()
	r := w.run(args...)
	if r.code != code {
		t.Fatalf("fibe %s: want exit %d, got %s", strings.Join(args, " "), code, r)
	}
	if r.stdout != "" && !strings.Contains(strings.Join(args, " "), "--json") {
		// human errors never print data
		t.Errorf("fibe %s: stdout on error: %q", strings.Join(args, " "), r.stdout)
	}
	// Exactly one error line; notices (and hints after it) may surround it.
	var errLines []string
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "Error: ") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 1 || (wantCode != "" && !strings.Contains(errLines[0], wantCode)) {
		t.Errorf("fibe %s: error lines %q, want one Error: %s ...", strings.Join(args, " "), errLines, wantCode)
	}
	return r
}

func TestExitCodes(t *testing.T) {
	t.Parallel()

	t.Run("not found 3", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{})
		r := expectExit(t, w, 3, "RESOURCE_NOT_FOUND", "pg", "get", "nope")
		mustContain(t, "stderr", r.stderr, "(request req_")
		// With --json: the error document on stderr, nothing on stdout.
		r = w.run("pg", "get", "nope", "--json")
		if r.code != 3 || r.stdout != "" {
			t.Fatalf("--json error: %s", r)
		}
		var doc errorDoc
		if err := decodeOne(r.stderr, &doc); err != nil {
			t.Fatalf("stderr is not one JSON error: %v\n%s", err, r.stderr)
		}
		if doc.Error.Code != "RESOURCE_NOT_FOUND" || doc.Error.Status != 404 || !strings.HasPrefix(doc.Error.RequestID, "req_") || doc.Error.Details == nil {
			t.Errorf("error document: %+v", doc)
		}
	})

	t.Run("unauthorized 4", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{})
		expectExit(t, w, 4, "UNAUTHORIZED", "pg", "list", "--api-key", "fibe_wrong_key_000000")
	})

	t.Run("missing key 4", func(t *testing.T) {
		t.Parallel()
		w := newUser(t)
		w.env["FIBE_API_URL"] = "http://127.0.0.1:9" // never contacted
		r := expectExit(t, w, 4, "no API key", "pg", "list")
		mustContain(t, "hint", r.stderr, "fibe --api-url http://127.0.0.1:9 auth login", "FIBE_API_KEY")
	})

	t.Run("validation 5", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{})
		w.ok("pg", "create", "--name", "dup", "--playspec", "web")
		r := expectExit(t, w, 5, "VALIDATION_FAILED", "pg", "create", "--name", "dup", "--playspec", "web")
		mustContain(t, "details", r.stderr, "has already been taken")
	})

	t.Run("conflict 6", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{Speed: 1}) // the first rollout keeps running
		w.ok("pg", "create", "--name", "busy", "--playspec", "web")
		var h struct {
			RequestID string `json:"request_id"`
		}
		w.jsonOf(&h, "pg", "rollout", "busy", "--no-wait")
		r := expectExit(t, w, 6, "CONFLICT", "pg", "rollout", "busy")
		// The hint names the operation in the way and how to wait for it.
		mustContain(t, "conflict hint", r.stderr, "fibe ops wait "+h.RequestID)
	})

	t.Run("not funded 7", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{})
		r := expectExit(t, w, 7, "MARQUEE_NOT_FUNDED", "pg", "create", "--name", "poor", "--playspec", "web", "--marquee", "unpaid")
		mustContain(t, "hint", r.stderr, "top it up")
	})

	t.Run("rate limited 8", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{RateLimit: 1, RateWindow: time.Hour})
		w.ok("mq", "list")
		// A fresh state directory has no rate ledger, so the request is
		// sent and answered 429; with no retries left that is exit 8.
		w.env["XDG_STATE_HOME"] = filepath.Join(t.TempDir(), "fresh")
		expectExit(t, w, 8, "RATE_LIMITED", "mq", "list", "--max-retries", "0")
	})

	t.Run("unavailable 12 then circuit open 9", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{Chaos: "503=1"})
		// Five failed attempts, one per process, open the breaker of the API
		// host: its state outlives each process.
		for i := 0; i < 5; i++ {
			expectExit(t, w, 12, "", "mq", "list", "--max-retries", "0")
		}
		before := w.server.Stats()
		r := expectExit(t, w, 9, "CIRCUIT_OPEN", "mq", "list", "--max-retries", "0")
		mustContain(t, "hint", r.stderr, "fibe breaker")
		if after := w.server.Stats(); total(after) != total(before) {
			t.Error("an open breaker still let a request through")
		}
		var list []struct {
			Resource string `json:"resource"`
			State    string `json:"state"`
		}
		w.jsonOf(&list, "breaker", "status")
		if len(list) == 0 || list[0].State != "open" {
			t.Fatalf("breaker status: %+v", list)
		}
		w.ok("breaker", "reset")
		expectExit(t, w, 12, "", "mq", "list", "--max-retries", "0")
	})

	t.Run("async timeout 10", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{Speed: 1})
		w.ok("pg", "create", "--name", "slow", "--playspec", "web")
		r := expectExit(t, w, 10, "ASYNC_TIMEOUT", "pg", "rollout", "slow", "--wait-timeout", "300ms", "--poll-interval", "50ms")
		mustContain(t, "resume hint", r.stderr, "fibe ops wait req_")
		// With --json stdout holds the last status, with the request id.
		r = w.run("pg", "restart", "slow", "--wait-timeout", "300ms", "--poll-interval", "50ms", "--json")
		if r.code != 10 && r.code != 6 {
			t.Fatalf("json timeout: %s", r)
		}
		if r.code == 10 {
			var last struct {
				RequestID string `json:"request_id"`
				Status    string `json:"status"`
			}
			if err := decodeOne(r.stdout, &last); err != nil || !strings.HasPrefix(last.RequestID, "req_") {
				t.Errorf("stdout after a timeout with --json: %q (%v)", r.stdout, err)
			}
		}
	})

	t.Run("remote failure 11", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, localapi.Config{})
		w.ok("pg", "create", "--name", "broken-1", "--playspec", "broken")
		r := expectExit(t, w, 11, "", "pg", "rollout", "broken-1")
		mustContain(t, "failure details", r.stderr, "build", "image_pull_failed")
		// Waiting on the playground itself gives PLAYGROUND_TERMINAL_STATE.
		r = expectExit(t, w, 11, "PLAYGROUND_TERMINAL_STATE", "pg", "wait", "broken-1", "--for", "running")
	})

	t.Run("usage 2", func(t *testing.T) {
		t.Parallel()
		w := newUser(t)
		for _, args := range [][]string{
			{"pg", "list", "--bogus"},
			{"bogus-command"},
			{"pg", "get"},
			{"pg", "rollout", "x", "--idempotency-key", "has space"},
			{"pg", "rollout", "x", "--wait-timeout", "soon"},
			{"pg", "wait", "x", "--for", "sleeping"},
			{"config", "set", "nope", "1"},
			{"pg", "delete", "x"}, // --yes is required when not interactive
		} {
			r := w.run(args...)
			if r.code != 2 {
				t.Errorf("fibe %s: want exit 2, got %s", strings.Join(args, " "), r)
				continue
			}
			if lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "Error: ") {
				t.Errorf("fibe %s: usage error is not one line: %q", strings.Join(args, " "), r.stderr)
			}
		}
		r := w.run("pg", "list", "--bogus", "--json")
		var doc errorDoc
		if r.code != 2 || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "USAGE_ERROR" {
			t.Errorf("usage error with --json: %s", r)
		}
	})
}

func total(s localapi.Stats) int {
	n := 0
	for _, byStatus := range s.Requests {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}
