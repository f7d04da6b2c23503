package e2e

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A restart whose answer hangs after it committed is sent again with its
// key, waited out while the server says "in flight", and replayed: exit 0,
// one restart. Past --wait-timeout it ends with exit 10 and the key, never
// exit 6 (CONFLICT).
func TestInFlightRestartIsWaitedOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	w.ok("pg", "create", "--name", "hang", "--playspec", "web")
	w.ok("pg", "wait", "hang", "--for", "running")
	if err := w.server.SetChaos("commit-then-hang=1:2s"); err != nil {
		t.Fatal(err)
	}
	before := w.server.Stats()
	r := w.ok("pg", "restart", "hang", "--timeout", "300ms")
	after := w.server.Stats()
	if n := after.Mutations - before.Mutations; n != 1 {
		t.Fatalf("the restart ran %d times, want once\n%s", n, r)
	}
	if after.Requests["POST /api/playgrounds/{id}/operations"]["409"] == 0 {
		t.Fatalf("the server never said in flight: %v\n%s", after.Requests, r)
	}

	if err := w.server.SetChaos("commit-then-hang=1:1h"); err != nil {
		t.Fatal(err)
	}
	r = expectExit(t, w, 10, "ASYNC_TIMEOUT", "pg", "restart", "hang", "--timeout", "300ms", "--wait-timeout", "1500ms",
		"--idempotency-key", "ci-42-restart")
	mustContain(t, "stderr", r.stderr, "--idempotency-key ci-42-restart")
	r = w.run("pg", "restart", "hang", "--timeout", "300ms", "--wait-timeout", "1s", "--idempotency-key", "ci-43-restart", "--json")
	var doc errorDoc
	if r.code != 10 || r.stdout != "" || decodeOne(r.stderr, &doc) != nil {
		t.Fatalf("--json: %s", r)
	}
	if doc.Error.Code != "ASYNC_TIMEOUT" || doc.Error.IdempotencyKey != "ci-43-restart" || !strings.Contains(doc.Error.Message, "ci-43-restart") {
		t.Fatalf("error document %+v", doc)
	}
}

// A wait whose status store answers 503 goes on to its deadline and ends
// with exit 10 and the command that resumes it, not exit 12.
func TestWaitThroughASickStatusStoreEndsAsTimeout(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 1})
	w.ok("pg", "create", "--name", "sick", "--playspec", "web")
	var h struct {
		RequestID string `json:"request_id"`
	}
	w.jsonOf(&h, "pg", "rollout", "sick", "--no-wait")
	if err := w.server.SetChaos("503=1"); err != nil {
		t.Fatal(err)
	}
	r := expectExit(t, w, 10, "ASYNC_TIMEOUT", "ops", "wait", h.RequestID, "--wait-timeout", "1500ms")
	mustContain(t, "stderr", r.stderr, "fibe ops wait "+h.RequestID)
	// The last poll's failure is in the details.
	r = w.run("ops", "wait", h.RequestID, "--wait-timeout", "1s", "--json")
	var doc errorDoc
	if r.code != 10 || decodeOne(r.stderr, &doc) != nil {
		t.Fatalf("--json: %s", r)
	}
	if last, _ := doc.Error.Details["last_error"].(string); doc.Error.Code != "ASYNC_TIMEOUT" || (last != "INTERNAL_ERROR" && last != "CIRCUIT_OPEN") {
		t.Fatalf("error document %+v", doc)
	}
}
