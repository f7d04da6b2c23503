package fibe_test

import (
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/api.golden")

// sourceFiles parses the package's non-test files in dir.
func sourceFiles(t *testing.T, dir string) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// exportedAPI is every exported declaration of the package in dir, one per
// line as go/printer prints it without comments, sorted.
func exportedAPI(t *testing.T, dir, pkg string) []string {
	t.Helper()
	fset, files := sourceFiles(t, dir)
	var lines []string
	print := func(node any) string {
		var b bytes.Buffer
		if err := (&printer.Config{Mode: printer.RawFormat}).Fprint(&b, fset, node); err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(b.String()), " ")
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
					continue
				}
				fn := *d
				fn.Body, fn.Doc = nil, nil
				lines = append(lines, pkg+": "+print(&fn))
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						ts := *s
						ts.Doc, ts.Comment = nil, nil
						if st, ok := ts.Type.(*ast.StructType); ok {
							ts.Type = exportedFields(st)
						}
						lines = append(lines, pkg+": type "+print(&ts))
					case *ast.ValueSpec:
						for i, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							line := pkg + ": " + d.Tok.String() + " " + n.Name
							if s.Type != nil {
								line += " " + print(s.Type)
							}
							if i < len(s.Values) {
								line += " = " + print(s.Values[i])
							}
							lines = append(lines, line)
						}
					}
				}
			}
		}
	}
	slices.Sort(lines)
	return lines
}

func exportedRecv(fl *ast.FieldList) bool {
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedFields is a struct with its unexported fields and comments left
// out, one field per name ("A, B string" and "A string; B string" are the
// same API).
func exportedFields(st *ast.StructType) *ast.StructType {
	out := &ast.StructType{Fields: &ast.FieldList{}}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			out.Fields.List = append(out.Fields.List, &ast.Field{Type: f.Type, Tag: f.Tag})
		}
		for _, n := range f.Names {
			if n.IsExported() {
				out.Fields.List = append(out.Fields.List, &ast.Field{Names: []*ast.Ident{n}, Type: f.Type, Tag: f.Tag})
			}
		}
	}
	return out
}

// The exported API of pkg/fibe and pkg/fibetest is testdata/api.golden: a
// changed or removed line is a breaking change; an added one is a new name
// the golden file must take (-update).
func TestAPIGolden(t *testing.T) {
	got := append(exportedAPI(t, ".", "fibe"), exportedAPI(t, "../fibetest", "fibetest")...)
	const golden = "testdata/api.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("breaking change: the API no longer has\n\t%s", line)
		}
	}
	for _, line := range got {
		if !slices.Contains(want, line) {
			t.Errorf("new API (run go test ./pkg/fibe -run TestAPIGolden -update if it is meant):\n\t%s", line)
		}
	}
}

// Every exported name's doc comment starts with the name (a const or var
// group may have one comment for the group).
func TestDocCommentsStartWithTheName(t *testing.T) {
	for _, dir := range []string{".", "../fibetest"} {
		_, files := sourceFiles(t, dir)
		for _, f := range files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Name.IsExported() && (d.Recv == nil || exportedRecv(d.Recv)) {
						checkDoc(t, d.Name.Name, d.Doc)
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								doc := s.Doc
								if doc == nil && len(d.Specs) == 1 {
									doc = d.Doc
								}
								checkDoc(t, s.Name.Name, doc)
							}
						case *ast.ValueSpec:
							for _, n := range s.Names {
								if n.IsExported() && d.Doc == nil && !(s.Doc != nil && strings.HasPrefix(s.Doc.Text(), n.Name)) {
									t.Errorf("%s: %s has no doc comment starting with its name", dir, n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
}

func checkDoc(t *testing.T, name string, doc *ast.CommentGroup) {
	t.Helper()
	if doc == nil || !strings.HasPrefix(doc.Text(), name) {
		t.Errorf("%s: the doc comment does not start with the name", name)
	}
}

// pkg/fibe has no behaviour of its own: its non-test files sleep, make
// timers, send HTTP and import a backoff or breaker library nowhere (the
// engine, internal/client, does all of that).
func TestNoBehaviourOfItsOwn(t *testing.T) {
	fset, files := sourceFiles(t, ".")
	banned := map[string]bool{"Sleep": true, "NewTimer": true, "After": true, "AfterFunc": true, "Tick": true,
		"NewTicker": true}
	httpMethods := map[string]bool{"Do": true, "Get": true, "Post": true, "PostForm": true, "Head": true, "RoundTrip": true,
		"CloseIdleConnections": true}
	for _, f := range files {
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "backoff") || strings.Contains(p, "gobreaker") {
				t.Errorf("%s imports %s", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" && banned[sel.Sel.Name] {
				t.Errorf("%s: time.%s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "http" && (sel.Sel.Name == "DefaultClient" || sel.Sel.Name == "Get" || sel.Sel.Name == "Post") {
				t.Errorf("%s: http.%s", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if httpMethods[sel.Sel.Name] {
				if _, isPkg := sel.X.(*ast.Ident); !isPkg || sel.X.(*ast.Ident).Name != "c" {
					// A method call named like an http.Client or
					// RoundTripper method on anything but the engine's
					// services (s.c.c.Playgrounds.Get, ...).
					if !strings.Contains(exprString(sel.X), ".c.") && !strings.HasPrefix(exprString(sel.X), "s.c.c") {
						t.Errorf("%s: %s.%s looks like an HTTP call", fset.Position(sel.Pos()), exprString(sel.X), sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return "?"
}
