package iostreams

import (
	"os/exec"
	"strings"
	"testing"
)

// The terminal layer knows nothing of the Fibe API: no package of this
// module is among its dependencies.
func TestImportsNothingOfFibe(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 || deps[len(deps)-1] != "github.com/fibegg/fibe/internal/iostreams" {
		t.Fatalf("go list -deps printed %q", out)
	}
	for _, pkg := range deps {
		if strings.HasPrefix(pkg, "github.com/fibegg/fibe") && pkg != "github.com/fibegg/fibe/internal/iostreams" {
			t.Errorf("internal/iostreams depends on %s", pkg)
		}
	}
}
