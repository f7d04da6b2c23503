package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fibegg/fibe/cmd"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
)

// TestManPagesUpToDate fails when the committed pages in man/ no longer
// match the command tree (a page missing, stale or left over). The .TH
// line carries the generation date and is not compared. Regenerate with:
//
//	go run ./cmd/man/mangen -dir man
func TestManPagesUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "man")
	ios, _, _, _ := iostreams.Test()
	root := cmd.NewCmdRoot(factory.New(ios, nil))
	fresh := t.TempDir()
	n, err := generate(root, fresh)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Glob(filepath.Join(fresh, "*.1"))
	if len(want) != n || n < 20 {
		t.Fatalf("generated %d pages, counted %d", len(want), n)
	}
	if !slices.Contains(want, filepath.Join(fresh, "fibe-playgrounds-create.1")) {
		t.Errorf("no page for fibe playgrounds create among %d", len(want))
	}
	const regen = "run `go run ./cmd/man/mangen -dir man`"
	for _, w := range want {
		name := filepath.Base(w)
		exp, _ := os.ReadFile(w)
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("man/%s is missing: %s", name, regen)
			continue
		}
		if !bytes.Equal(withoutTH(got), withoutTH(exp)) {
			t.Errorf("man/%s is stale: %s", name, regen)
		}
	}
	have, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	for _, h := range have {
		if _, err := os.Stat(filepath.Join(fresh, filepath.Base(h))); err != nil {
			t.Errorf("man/%s has no command any more: delete it and %s", filepath.Base(h), regen)
		}
	}
}

// withoutTH drops the .TH line (title, section, date).
func withoutTH(page []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(page, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte(".TH ")) {
			out = append(out, line)
		}
	}
	return bytes.Join(out, []byte("\n"))
}
