package cmdutil

import (
	"os/exec"
	"strings"
	"testing"
)

// What commands share is not how they are wired: the emulator, the state
// stores and the Factory's construction (cmd/factory) are no dependency of
// this package, so a command cannot reach around its Factory for them.
func TestNoWiringDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != "github.com/fibegg/fibe/cmd/cmdutil" {
		t.Fatalf("go list -deps printed %q", out)
	}
	for _, pkg := range deps {
		switch strings.TrimPrefix(pkg, "github.com/fibegg/fibe/") {
		case "cmd/factory", "internal/localapi", "internal/statestore", "internal/httpserve":
			t.Errorf("cmd/cmdutil depends on %s", pkg)
		}
	}
}
