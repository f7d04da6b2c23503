package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const modulePath = "github.com/fibegg/fibe"

// TestArchitectureListsEveryPackage holds docs/architecture.md to the code:
// its package table names every package of the module, and nothing else.
func TestArchitectureListsEveryPackage(t *testing.T) {
	documented := documentedPackages(t, "../docs/architecture.md")

	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", modulePath+"/...").Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	var actual []string
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, modulePath), "/")
		if rel == "" {
			rel = "."
		}
		actual = append(actual, rel)
	}
	if len(actual) == 0 {
		t.Fatal("go list ./... listed no package")
	}

	for _, p := range actual {
		if !slices.Contains(documented, p) {
			t.Errorf("package %s is missing from the table of docs/architecture.md", p)
		}
	}
	for _, p := range documented {
		if !slices.Contains(actual, p) {
			t.Errorf("docs/architecture.md lists package %s, which does not exist", p)
		}
	}
	seen := map[string]bool{}
	for _, p := range documented {
		if seen[p] {
			t.Errorf("docs/architecture.md lists package %s twice", p)
		}
		seen[p] = true
	}
}

// documentedPackages reads the first cell of each row between the
// packages:begin and packages:end markers: a package path in backquotes.
func documentedPackages(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pkgs []string
	in, found := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "<!-- packages:begin -->":
			in, found = true, true
			continue
		case line == "<!-- packages:end -->":
			in = false
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.TrimPrefix(line, "| `")
		end := strings.Index(cell, "`")
		if end <= 0 {
			t.Errorf("%s: cannot read the package of row %q", path, line)
			continue
		}
		pkgs = append(pkgs, cell[:end])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !found || len(pkgs) == 0 {
		t.Fatalf("%s: no package table between <!-- packages:begin --> and <!-- packages:end -->", path)
	}
	return pkgs
}
