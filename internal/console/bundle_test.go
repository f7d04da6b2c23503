package console

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBundleIsFresh rebuilds the front end from the committed package.json,
// lockfile and sources into a temporary copy (npm ci installs the locked
// packages there) and fails when the committed bundle differs: run
// `go generate ./internal/console` and commit web/dist. It needs Node and
// npm; without them it is skipped, except in CI, where it fails.
func TestBundleIsFresh(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("short mode: skipping the npm build")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI needs it to check the committed bundle", tool)
			}
			t.Skipf("bundle check skipped: %s is not installed", tool)
		}
	}
	work := t.TempDir()
	for _, name := range []string{"package.json", "package-lock.json", "build.mjs"} {
		copyFile(t, filepath.Join("web", name), filepath.Join(work, name))
	}
	if err := os.CopyFS(filepath.Join(work, "src"), os.DirFS(filepath.Join("web", "src"))); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	run("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	run("node", "build.mjs", "fresh")
	for _, name := range []string{"console.js", "console.css"} {
		committed, err := os.ReadFile(filepath.Join("web", "dist", name))
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := os.ReadFile(filepath.Join(work, "fresh", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, fresh) {
			t.Errorf("web/dist/%s is stale (%d bytes committed, %d built): run go generate ./internal/console and commit it", name, len(committed), len(fresh))
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBundleSizeBudget: the page's JS and CSS stay within 250 KB gzipped.
func TestBundleSizeBudget(t *testing.T) {
	total := 0
	for _, name := range []string{"console.js", "console.css"} {
		b, err := distFS.ReadFile("web/dist/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		t.Logf("%s: %d bytes, %d gzipped", name, len(b), buf.Len())
		total += buf.Len()
	}
	if total > 250*1024 {
		t.Fatalf("JS+CSS is %d bytes gzipped, over the 250 KB budget", total)
	}
}
