//go:build linux || darwin

package e2e

import (
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// A waited operation that fails leaves a ✗ line, as success leaves ✓.
func TestTerminalSpinnerFailLine(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{Speed: 20})
	w.ok("pg", "create", "--name", "ttyfail", "--playspec", "broken")
	out, code := w.runTTY(nil, "", nil, "pg", "rollout", "ttyfail", "--poll-interval", "100ms")
	if code != 11 {
		t.Fatalf("a broken rollout on a terminal: exit %d\n%q", code, out)
	}
	if !strings.Contains(out, "✗") || !strings.Contains(out, "Rolling out ttyfail · failed after ") {
		t.Errorf("no failure line after the spinner:\n%q", out)
	}
}
