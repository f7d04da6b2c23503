package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/fibegg/fibe"

type listedPackage struct {
	ImportPath string
	Deps       []string
}

// listDeps runs go list -deps -json over the module and returns each of the
// module's packages with its dependencies (direct and indirect).
func listDeps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Deps,Module", "./...")
	cmd.Dir = ".."
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if p.ImportPath == module || strings.HasPrefix(p.ImportPath, module+"/") {
			pkgs[p.ImportPath] = p.Deps
		}
	}
	return pkgs
}

// The import rules of the SDK (docs/sdk.md): the doors stay on
// internal/client, never on pkg/...; pkg/fibe depends on nothing of the
// presenter, the terminal, the settings, the doors or the emulator, nor on
// the libraries only they need; pkg/fibetest adds only the emulator.
func TestImportsSDKRules(t *testing.T) {
	pkgs := listDeps(t)
	fibe, fibetest := module+"/pkg/fibe", module+"/pkg/fibetest"
	if pkgs[fibe] == nil || pkgs[fibetest] == nil {
		t.Fatalf("go list found no %s or %s", fibe, fibetest)
	}
	for p, deps := range pkgs {
		rel := strings.TrimPrefix(p, module+"/")
		if !strings.HasPrefix(rel, "cmd/") && !strings.HasPrefix(rel, "internal/") && p != module {
			continue
		}
		for _, d := range deps {
			if strings.HasPrefix(d, module+"/pkg/") {
				t.Errorf("%s depends on %s: the doors stay on internal/client", p, d)
			}
		}
	}
	bannedPrefixes := []string{
		module + "/cmd",
		module + "/internal/output", module + "/internal/iostreams", module + "/internal/config",
		module + "/internal/console", module + "/internal/mcpserver", module + "/internal/mcpinstall",
		module + "/internal/localapi",
		"github.com/spf13/cobra", "github.com/zalando/go-keyring", "github.com/modelcontextprotocol/go-sdk",
		"github.com/chromedp/", "github.com/briandowns/spinner", "github.com/itchyny/gojq", "github.com/creack/pty",
		"github.com/fatih/color",
	}
	for _, d := range pkgs[fibe] {
		for _, b := range bannedPrefixes {
			if d == b || strings.HasPrefix(d, strings.TrimSuffix(b, "/")+"/") {
				t.Errorf("pkg/fibe depends on %s", d)
			}
		}
	}
	// What fibetest adds to fibe's dependencies (beyond the standard
	// library's httptest) is the emulator and what the emulator needs.
	allowed := map[string]bool{module + "/internal/localapi": true, fibe: true}
	for _, d := range pkgs[module+"/internal/localapi"] {
		allowed[d] = true
	}
	for _, d := range pkgs[fibetest] {
		std := !strings.Contains(strings.SplitN(d, "/", 2)[0], ".")
		if !std && !slices.Contains(pkgs[fibe], d) && !allowed[d] {
			t.Errorf("pkg/fibetest depends on %s, which neither pkg/fibe nor the emulator needs", d)
		}
	}
}

// No exported signature or field of pkg/... names a type of internal/:
// those would be API by accident, and unusable outside the module.
func TestImportsNoInternalTypeInTheSDK(t *testing.T) {
	fset := token.NewFileSet()
	// The compiler's export data of every dependency, from the build cache.
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", "./pkg/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	exports := map[string]string{}
	for line := range strings.Lines(string(out)) {
		if path, file, ok := strings.Cut(strings.TrimSpace(line), "="); ok && file != "" {
			exports[path] = file
		}
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	for _, dir := range []string{"../pkg/fibe", "../pkg/fibetest"} {
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		var files []*ast.File
		for _, n := range names {
			if strings.HasSuffix(n, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, n, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		conf := types.Config{Importer: imp.(types.ImporterFrom)}
		pkg, err := conf.Check(files[0].Name.Name, fset, files, nil)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			walk := &typeWalk{t: t, where: dir + ": " + name, seen: map[types.Type]bool{}}
			walk.check(obj.Type(), true)
			if tn, ok := obj.(*types.TypeName); ok {
				if named, ok := tn.Type().(*types.Named); ok {
					for m := range named.Methods() {
						if m.Exported() {
							walk.where = dir + ": " + name + "." + m.Name()
							walk.check(m.Type(), false)
						}
					}
				}
			}
		}
	}
}

type typeWalk struct {
	t     *testing.T
	where string
	seen  map[types.Type]bool
}

// check reports a type of internal/ anywhere in t; top: t is the declared
// type itself, whose underlying structure is checked (exported fields only).
func (w *typeWalk) check(t types.Type, top bool) {
	if w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if p := t.Obj().Pkg(); p != nil && strings.Contains(p.Path(), "/internal/") {
			w.t.Errorf("%s names %s.%s", w.where, p.Path(), t.Obj().Name())
			return
		}
		if top {
			w.check(t.Underlying(), false)
		}
	case *types.Alias:
		w.check(types.Unalias(t), top)
	case *types.Pointer:
		w.check(t.Elem(), false)
	case *types.Slice:
		w.check(t.Elem(), false)
	case *types.Array:
		w.check(t.Elem(), false)
	case *types.Map:
		w.check(t.Key(), false)
		w.check(t.Elem(), false)
	case *types.Chan:
		w.check(t.Elem(), false)
	case *types.Signature:
		for v := range t.Params().Variables() {
			w.check(v.Type(), false)
		}
		for v := range t.Results().Variables() {
			w.check(v.Type(), false)
		}
	case *types.Struct:
		for f := range t.Fields() {
			if f.Exported() {
				w.check(f.Type(), false)
			}
		}
	case *types.Interface:
		for m := range t.Methods() {
			w.check(m.Type(), false)
		}
	}
}

// A module outside this one builds a program on the SDK and runs it
// against pkg/fibetest: what a user's go.mod with a replace does.
func TestImportsOutsideModuleUsesTheSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/outside\n\ngo 1.26\n\nrequire github.com/fibegg/fibe v0.0.0\n\nreplace github.com/fibegg/fibe => " + repo + "\n"
	sum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	prog := `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

func main() {
	srv := fibetest.NewServer(fibetest.WithChaos("commit-then-502=1"))
	defer srv.Close()
	c := srv.Client()
	pg, resp, err := c.Playgrounds.Create(context.Background(), &fibe.PlaygroundCreateParams{Name: "outside", Playspec: "web", Marquee: "local"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(pg.Name, resp.Replayed(), srv.Stats().Creates["outside"])
}
`
	for name, body := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": prog} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "run", "-mod=mod", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "outside true 1" {
		t.Fatalf("the outside program printed %q", got)
	}
}
