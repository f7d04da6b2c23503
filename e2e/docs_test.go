package e2e

import (
	"bufio"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

var updateDocs = flag.Bool("update", false, "rewrite the import graph of docs/architecture.md from go list")

// nothingOfFibe ends the graph's line of the packages that import no other
// package of the module.
const nothingOfFibe = "(nothing of fibe)"

// TestArchitectureImportGraph holds the "Import graph" block of
// docs/architecture.md to `go list`: every package of the module with the
// module's packages its non-test files import. On a difference it prints
// the block as it should read; `go test ./e2e -run TestArchitectureImportGraph
// -update` writes it.
func TestArchitectureImportGraph(t *testing.T) {
	const doc = "../docs/architecture.md"
	actual := moduleImports(t)
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	start, end, err := importGraphBlock(string(text))
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	want := renderImportGraph(actual)
	if *updateDocs {
		out := string(text[:start]) + want + string(text[end:])
		if err := os.WriteFile(doc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	documented, err := parseImportGraph(string(text[start:end]))
	if err != nil {
		t.Fatalf("%s: %v", doc, err)
	}
	problems := diffImportGraph(documented, actual)
	if len(problems) == 0 {
		return
	}
	t.Errorf("the import graph of %s differs from go list:\n  %s\n\n"+
		"The block should read (or run go test ./e2e -run TestArchitectureImportGraph -update):\n\n```\n%s```",
		doc, strings.Join(problems, "\n  "), want)
}

// testHelpers are the packages written for tests (docs/architecture.md's
// table says so of each).
var testHelpers = []string{
	"cmd/cmdutil/cmdtest",
	"internal/reliability/reliabilitytest",
	"internal/statestore/redistest",
	"internal/testio",
}

// TestTestHelpersStayOutOfTheBinary: no package of the fibe binary imports
// a package written for tests, directly or not.
func TestTestHelpersStayOutOfTheBinary(t *testing.T) {
	graph := moduleImports(t)
	for _, h := range testHelpers {
		if _, ok := graph[h]; !ok {
			t.Errorf("test helper package %s does not exist: update testHelpers", h)
		}
	}
	out, err := exec.Command("go", "list", "-deps", modulePath).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if rel, ok := modulePackage(dep); ok && slices.Contains(testHelpers, rel) {
			t.Errorf("the binary imports %s, a package written for tests", rel)
		}
	}
}

// moduleImports is each package of the module (by its path in the module,
// "." for the root) with the module's packages it imports, test files
// left out.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, modulePath+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		imports := []string{}
		for _, imp := range fields[1:] {
			if rel, ok := modulePackage(imp); ok {
				imports = append(imports, rel)
			}
		}
		rel, _ := modulePackage(fields[0])
		slices.Sort(imports)
		graph[rel] = imports
	}
	if len(graph) == 0 {
		t.Fatal("go list listed no package")
	}
	return graph
}

// modulePackage is path relative to the module ("." for its root), if it
// is one of the module's packages.
func modulePackage(path string) (string, bool) {
	if path == modulePath {
		return ".", true
	}
	rel, ok := strings.CutPrefix(path, modulePath+"/")
	return rel, ok
}

// importGraphBlock finds the fenced block under "## Import graph": the
// offsets of its first line and of its closing fence.
func importGraphBlock(text string) (start, end int, err error) {
	h := strings.Index(text, "\n## Import graph\n")
	if h < 0 {
		return 0, 0, fmt.Errorf(`no "## Import graph" section`)
	}
	open := strings.Index(text[h:], "\n```\n")
	if open < 0 {
		return 0, 0, fmt.Errorf("no ``` block under \"## Import graph\"")
	}
	start = h + open + len("\n```\n")
	close := strings.Index(text[start:], "```\n")
	if close < 0 || (close > 0 && text[start+close-1] != '\n') {
		return 0, 0, fmt.Errorf("the block under \"## Import graph\" is not closed")
	}
	return start, start + close, nil
}

// parseImportGraph reads the block: an entry starts on a line that does
// not start with a space and goes on over the indented lines after it;
// it is "A → B, C" or "A, B, C → (nothing of fibe)".
func parseImportGraph(block string) (map[string][]string, error) {
	var entries []string
	for _, line := range strings.Split(block, "\n") {
		switch {
		case strings.TrimSpace(line) == "":
		case line[0] == ' ' || line[0] == '\t':
			if len(entries) == 0 {
				return nil, fmt.Errorf("the block starts with an indented line %q", line)
			}
			entries[len(entries)-1] += " " + strings.TrimSpace(line)
		default:
			entries = append(entries, strings.TrimSpace(line))
		}
	}
	graph := map[string][]string{}
	for _, e := range entries {
		from, to, ok := strings.Cut(e, "→")
		if !ok {
			return nil, fmt.Errorf("entry %q has no →", e)
		}
		imports := []string{}
		if strings.TrimSpace(to) != nothingOfFibe {
			imports = splitList(to)
			slices.Sort(imports)
		}
		for _, p := range splitList(from) {
			if _, dup := graph[p]; dup {
				return nil, fmt.Errorf("package %s has two entries", p)
			}
			graph[p] = imports
		}
	}
	return graph, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// diffImportGraph lists, package by package, where doc differs from actual.
func diffImportGraph(doc, actual map[string][]string) []string {
	var problems []string
	for _, p := range slices.Sorted(maps.Keys(actual)) {
		got, ok := doc[p]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s is missing (it imports %s)", p, describeImports(actual[p])))
			continue
		}
		var added, removed []string
		for _, imp := range actual[p] {
			if !slices.Contains(got, imp) {
				added = append(added, imp)
			}
		}
		for _, imp := range got {
			if !slices.Contains(actual[p], imp) {
				removed = append(removed, imp)
			}
		}
		if len(added) > 0 {
			problems = append(problems, fmt.Sprintf("%s also imports %s", p, strings.Join(added, ", ")))
		}
		if len(removed) > 0 {
			problems = append(problems, fmt.Sprintf("%s does not import %s", p, strings.Join(removed, ", ")))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(doc)) {
		if _, ok := actual[p]; !ok {
			problems = append(problems, fmt.Sprintf("%s is listed and does not exist", p))
		}
	}
	return problems
}

func describeImports(imports []string) string {
	if len(imports) == 0 {
		return nothingOfFibe
	}
	return strings.Join(imports, ", ")
}

// renderImportGraph writes the block: one entry per package that imports
// others of the module, in path order, in lines of at most 96 bytes; then
// one entry for the packages that import none.
func renderImportGraph(graph map[string][]string) string {
	const width = 96
	var leaves []string
	col := 0
	for p, imports := range graph {
		if len(imports) == 0 {
			leaves = append(leaves, p)
		} else {
			col = max(col, len(p)+3)
		}
	}
	var b strings.Builder
	wrap := func(first string, items []string, indent int, last string) {
		line := first
		for i, it := range items {
			if i < len(items)-1 {
				it += ","
			}
			switch {
			case i == 0:
				line += it
			case len(line)+1+len(it) > width:
				b.WriteString(line + "\n")
				line = strings.Repeat(" ", indent) + it
			default:
				line += " " + it
			}
		}
		if last != "" {
			if len(line)+1+len(last) > width {
				b.WriteString(line + "\n")
				line = strings.Repeat(" ", indent) + last
			} else {
				line += " " + last
			}
		}
		b.WriteString(line + "\n")
	}
	for _, p := range slices.Sorted(maps.Keys(graph)) {
		if imports := graph[p]; len(imports) > 0 {
			first := p + strings.Repeat(" ", col-len(p)) + "→ "
			wrap(first, imports, col+2, "")
		}
	}
	if len(leaves) > 0 {
		slices.Sort(leaves)
		wrap("", leaves, 2, "→ "+nothingOfFibe)
	}
	return b.String()
}

// citedDoc is a Markdown file named in a comment: "docs/contract.md",
// "contract.md §5", "../bench/README.md". URLs are taken out first.
var (
	citedDoc = regexp.MustCompile(`[A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)*\.md\b`)
	anURL    = regexp.MustCompile(`[a-z]+://\S+`)
)

// TestCommentsCiteDocsOfTheRepository: every Markdown file a comment of
// the Go code or of the console's scripts names is in this repository: a
// bare name in docs/, at the root or beside the file; a path from the root
// or from the file's directory. A comment citing a document kept
// elsewhere sends its reader nowhere.
func TestCommentsCiteDocsOfTheRepository(t *testing.T) {
	const root = ".."
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	checked := 0
	check := func(path, where, comment string) {
		dir := filepath.Dir(path)
		for _, name := range citedDoc.FindAllString(anURL.ReplaceAllString(comment, ""), -1) {
			if strings.HasPrefix(name, ".md") {
				continue
			}
			checked++
			candidates := []string{filepath.Join(root, name), filepath.Join(dir, name)}
			if !strings.Contains(name, "/") {
				candidates = append([]string{filepath.Join(root, "docs", name)}, candidates...)
			}
			if !slices.ContainsFunc(candidates, exists) {
				t.Errorf("%s: a comment cites %s, which is not in the repository (looked for %s)",
					where, name, strings.Join(candidates, ", "))
			}
		}
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || name == "testdata" || name == "dist" || (strings.HasPrefix(name, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go":
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, group := range f.Comments {
				for _, c := range group.List {
					check(path, fset.Position(c.Pos()).String(), c.Text)
				}
			}
		case ".js", ".mjs":
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				if _, comment, ok := strings.Cut(line, "//"); ok {
					check(path, fmt.Sprintf("%s:%d", path, i+1), comment)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no comment cites a document: the scan is broken")
	}
}
