//go:build unix

package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// Ctrl-C while waiting on an accepted operation: exit 130 and the exact
// command that resumes the wait.
func TestInterruptWhileWaiting(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 0.5}) // a rollout takes many seconds
	w.ok("pg", "create", "--name", "ctrlc", "--playspec", "web")
	p := w.start("pg", "rollout", "ctrlc")
	p.waitFor(t, 10*time.Second, "the accepted notice", func(_, stderr string) bool { return strings.Contains(stderr, "Accepted as req_") })
	_ = p.cmd.Process.Signal(interrupt)
	r := p.wait(t, 10*time.Second)
	if r.code != 130 {
		t.Fatalf("want exit 130, got %s", r)
	}
	mustContain(t, "stderr", r.stderr, "CANCELLED", "fibe ops wait req_")
	if regexp.MustCompile(`fibe ops wait req_\w+`).FindString(r.stderr) == "" {
		t.Fatal("no request id in the resume hint")
	}
}

// Ctrl-C during a mutation whose answer has not come: exit 130 and the
// same command line plus --idempotency-key KEY, which retries it safely.
func TestInterruptDuringMutation(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "latency=1:20s"})
	p := w.start("pg", "create", "--name", "hang", "--playspec", "web", "--debug")
	p.waitFor(t, 10*time.Second, "the request on the wire", func(_, stderr string) bool { return strings.Contains(stderr, "--> POST") })
	_ = p.cmd.Process.Signal(interrupt)
	r := p.wait(t, 10*time.Second)
	if r.code != 130 {
		t.Fatalf("want exit 130, got %s", r)
	}
	m := regexp.MustCompile(`fibe pg create --name hang --playspec web --debug --idempotency-key ([0-9a-f]{32})`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no retry command in:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, localapi.DefaultAPIKey) {
		t.Error("the API key leaked into stderr")
	}
	// Retrying with the printed key (without the latency) creates it once.
	if err := w.server.SetChaos(""); err != nil {
		t.Fatal(err)
	}
	w.ok("pg", "create", "--name", "hang", "--playspec", "web", "--idempotency-key", m[1])
	w.ok("pg", "create", "--name", "hang", "--playspec", "web", "--idempotency-key", m[1])
	if n := w.server.Stats().Creates["hang"]; n != 1 {
		t.Errorf("created %d times", n)
	}
}

// Ctrl-C during a mutation run with --api-key: the printed retry command
// must not carry the key (keys are never printed), yet must still say to
// pass one, since idempotency keys are scoped to the API key.
func TestInterruptDuringMutationHidesAPIKeyFlag(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Chaos: "latency=1:20s"})
	delete(w.env, "FIBE_API_KEY")
	p := w.start("--api-key", w.key, "pg", "create", "--name", "hang", "--playspec", "web", "--debug")
	p.waitFor(t, 10*time.Second, "the request on the wire", func(_, stderr string) bool { return strings.Contains(stderr, "--> POST") })
	_ = p.cmd.Process.Signal(interrupt)
	r := p.wait(t, 10*time.Second)
	if r.code != 130 {
		t.Fatalf("want exit 130, got %s", r)
	}
	if strings.Contains(r.stderr, w.key) {
		t.Errorf("the API key leaked into stderr:\n%s", r.stderr)
	}
	mustContain(t, "stderr", r.stderr, "Retry it safely with: fibe pg create --name hang --playspec web --debug --idempotency-key ", "--api-key")
}
