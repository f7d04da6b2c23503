package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fibegg/fibe/cmd/factory"
	mancmd "github.com/fibegg/fibe/cmd/man"
	"github.com/fibegg/fibe/internal/iostreams"
)

// TestCommandReferenceUpToDate holds docs/commands.md to the command tree.
// Regenerate with:
//
//	go run . man --reference docs/commands.md
func TestCommandReferenceUpToDate(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	want := mancmd.Reference(NewCmdRoot(factory.New(ios, nil)))
	got, err := os.ReadFile(filepath.Join("..", "docs", "commands.md"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("docs/commands.md is missing or stale: run `go run . man --reference docs/commands.md`")
	}
	for _, cmd := range []string{"## fibe playgrounds create", "## fibe playspecs list", "--no-wait"} {
		if !bytes.Contains(want, []byte(cmd)) {
			t.Errorf("the reference has no %q", cmd)
		}
	}
}
