package mcpserver

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/mcp-tools.md and the README's tool list")

const (
	readmeBegin = "<!-- mcp-tools:begin -->\n"
	readmeEnd   = "<!-- mcp-tools:end -->"
)

// The tool lists in docs/ and the README are generated from the registry;
// this fails when they are stale.
func TestToolDocs(t *testing.T) {
	docs := filepath.Join("..", "..", "docs", "mcp-tools.md")
	readme := filepath.Join("..", "..", "README.md")
	want := docsMarkdown()
	rd, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := strings.Index(string(rd), readmeBegin), strings.Index(string(rd), readmeEnd)
	if begin < 0 || end < begin {
		t.Fatalf("README.md has no %q ... %q block", strings.TrimSpace(readmeBegin), readmeEnd)
	}
	wantReadme := string(rd[:begin+len(readmeBegin)]) + summary() + string(rd[end:])
	if *update {
		if err := os.MkdirAll(filepath.Dir(docs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(docs, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(readme, []byte(wantReadme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(docs)
	if err != nil || string(got) != want {
		t.Fatalf("docs/mcp-tools.md is stale (%v): run go test ./internal/mcpserver -run TestToolDocs -update", err)
	}
	if rd, _ = os.ReadFile(readme); string(rd) != wantReadme {
		t.Fatal("README.md's tool list is stale: run go test ./internal/mcpserver -run TestToolDocs -update")
	}
}
