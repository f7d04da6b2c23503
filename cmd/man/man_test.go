package man

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fibegg/fibe/internal/iostreams"
)

// `fibe man --dir DIR` writes the committed pages of man/, byte for byte,
// every one of them and nothing else.
func TestManWritesTheCommittedPages(t *testing.T) {
	ios, _, _, stderr := iostreams.Test()
	dir := filepath.Join(t.TempDir(), "man1")
	if err := run(&Options{IO: ios, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Glob(filepath.Join("..", "..", "man", "*.1"))
	got, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(want) < 20 || len(got) != len(want) {
		t.Fatalf("wrote %d files, man/ has %d pages", len(got), len(want))
	}
	for _, w := range want {
		exp, _ := os.ReadFile(w)
		page, err := os.ReadFile(filepath.Join(dir, filepath.Base(w)))
		if err != nil || !bytes.Equal(page, exp) {
			t.Errorf("%s: not the committed page (%v)", filepath.Base(w), err)
		}
	}
	if !bytes.Contains(stderr.Bytes(), []byte("Wrote ")) {
		t.Errorf("no notice: %q", stderr.String())
	}
}
