package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fibegg/fibe/cmd/completion"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
)

// TestCompletionsUpToDate fails when the committed scripts in completions/
// no longer match the command tree. Regenerate them with:
//
//	go run . completion --generate-dir completions
func TestCompletionsUpToDate(t *testing.T) {
	dir := filepath.Join("..", "completions")
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		t.Skip("no completions/ directory yet")
	}
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(factory.New(ios, nil))
	for _, s := range completion.Shells {
		var want bytes.Buffer
		if err := completion.Generate(root, s.Name, &want); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, s.File))
		if err != nil {
			t.Errorf("%s: %v (run: go run . completion --generate-dir completions)", s.File, err)
			continue
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("completions/%s is stale: run `go run . completion --generate-dir completions`", s.File)
		}
	}
}
