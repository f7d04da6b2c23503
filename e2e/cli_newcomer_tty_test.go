//go:build linux || darwin

package e2e

import (
	"regexp"
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
	// The error: each fact once, the diagnostics' suggestion whole, in at
	// most six lines.
	plain := regexp.MustCompile("\x1b\\[[0-9;]*[A-Za-z]").ReplaceAllString(out, "")
	_, block, _ := strings.Cut(plain, "Error: ")
	block = strings.TrimSpace(strings.ReplaceAll(block, "\r", ""))
	if n := strings.Count(block, "\n") + 1; n > 6 {
		t.Errorf("the error takes %d lines at a terminal, want at most 6:\n%s", n, block)
	}
	mustContain(t, "the build failure", block, "Suggestion: check the image name and the registry credentials of the playspec\n",
		"Failed step: build (Building images)", "pg status ttyfail")
	if strings.Count(block, "image_pull_failed") != 1 {
		t.Errorf("the reason more than once:\n%s", block)
	}
}
