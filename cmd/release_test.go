package cmd

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/fibegg/fibe/cmd/completion"
)

// The parts of .goreleaser.yaml the test holds to the README's promises.
type releaseConfig struct {
	Version int `yaml:"version"`
	Before  struct {
		Hooks []string `yaml:"hooks"`
	} `yaml:"before"`
	Builds []struct {
		ID     string   `yaml:"id"`
		Binary string   `yaml:"binary"`
		Goos   []string `yaml:"goos"`
	} `yaml:"builds"`
	Archives []struct {
		Files []string `yaml:"files"`
	} `yaml:"archives"`
	Nfpms []struct {
		IDs      []string `yaml:"ids"`
		Formats  []string `yaml:"formats"`
		Bindir   string   `yaml:"bindir"`
		Contents []struct {
			Src      string `yaml:"src"`
			Dst      string `yaml:"dst"`
			Packager string `yaml:"packager"`
		} `yaml:"contents"`
	} `yaml:"nfpms"`
	Casks []struct {
		Binaries    []string          `yaml:"binaries"`
		Manpages    []string          `yaml:"manpages"`
		Completions map[string]string `yaml:"completions"`
		Repository  map[string]any    `yaml:"repository"`
		SkipUpload  string            `yaml:"skip_upload"`
	} `yaml:"homebrew_casks"`
	Scoops []struct {
		Name       string         `yaml:"name"`
		Repository map[string]any `yaml:"repository"`
		SkipUpload string         `yaml:"skip_upload"`
	} `yaml:"scoops"`
}

// TestReleaseConfig parses .goreleaser.yaml and checks the packages: archives with the completions and the
// manual pages, .deb and .rpm with both in their system places, a
// Homebrew cask and a Scoop manifest, no token written in the file, and
// every source path it names present in the repository.
func TestReleaseConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]any
	if err := yaml.Unmarshal(data, &all); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	var rc releaseConfig
	if err := yaml.Unmarshal(data, &rc); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if rc.Version != 2 {
		t.Errorf("version %d, want 2", rc.Version)
	}
	for _, hook := range []string{"go run . completion --generate-dir completions", "go run ./cmd/man/mangen -dir man"} {
		if !slices.Contains(rc.Before.Hooks, hook) {
			t.Errorf("before.hooks lacks %q", hook)
		}
	}
	if len(rc.Builds) != 1 || rc.Builds[0].Binary != "fibe" || !slices.Contains(rc.Builds[0].Goos, "linux") {
		t.Fatalf("builds %+v", rc.Builds)
	}
	exists := func(where, src string) {
		t.Helper()
		matches, _ := filepath.Glob(filepath.Join("..", src))
		if len(matches) == 0 {
			t.Errorf("%s: %s matches no file of the repository", where, src)
		}
	}

	if len(rc.Archives) != 1 {
		t.Fatalf("%d archives", len(rc.Archives))
	}
	for _, want := range []string{"README.md", "LICENSE", "completions/*", "man/*.1"} {
		if !slices.Contains(rc.Archives[0].Files, want) {
			t.Errorf("the archives lack %s", want)
		}
		exists("archives", want)
	}

	if len(rc.Nfpms) != 1 {
		t.Fatalf("%d nfpms", len(rc.Nfpms))
	}
	pkg := rc.Nfpms[0]
	if !slices.Contains(pkg.Formats, "deb") || !slices.Contains(pkg.Formats, "rpm") {
		t.Errorf("nfpms formats %v, want deb and rpm", pkg.Formats)
	}
	if pkg.Bindir != "/usr/bin" {
		t.Errorf("nfpms bindir %q", pkg.Bindir)
	}
	placed := map[string]string{} // destination by packager ("" = both)
	for _, c := range pkg.Contents {
		exists("nfpms", c.Src)
		placed[c.Packager+" "+c.Dst] = c.Src
	}
	for key, src := range map[string]string{
		" /usr/share/bash-completion/completions/fibe":    "completions/fibe.bash",
		"deb /usr/share/zsh/vendor-completions/_fibe":     "completions/_fibe",
		"rpm /usr/share/zsh/site-functions/_fibe":         "completions/_fibe",
		" /usr/share/fish/vendor_completions.d/fibe.fish": "completions/fibe.fish",
		" /usr/share/man/man1/":                           "man/*.1",
	} {
		if placed[key] != src {
			t.Errorf("nfpms: %s should install %s (has %q)", strings.TrimSpace(key), src, placed[key])
		}
	}
	// Every completion script the command writes is packaged somewhere.
	for _, s := range completion.Shells {
		if s.Name == "powershell" {
			continue // Windows has no .deb/.rpm; the archive carries it
		}
		if !strings.Contains(string(data), "completions/"+s.File) {
			t.Errorf("completions/%s is in no package", s.File)
		}
	}

	if len(rc.Casks) != 1 {
		t.Fatalf("%d homebrew casks", len(rc.Casks))
	}
	cask := rc.Casks[0]
	if !slices.Contains(cask.Binaries, "fibe") || cask.Repository["owner"] == nil || cask.Repository["name"] == nil {
		t.Errorf("homebrew cask %+v", cask)
	}
	for _, m := range cask.Manpages {
		exists("homebrew_casks manpages", m)
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		if cask.Completions[shell] == "" {
			t.Errorf("the cask installs no %s completion", shell)
		}
		exists("homebrew_casks completions", cask.Completions[shell])
	}

	if len(rc.Scoops) != 1 || rc.Scoops[0].Repository["owner"] == nil || rc.Scoops[0].Repository["name"] == nil {
		t.Errorf("scoops %+v", rc.Scoops)
	}
	// A tag that names a prerelease must not update the tap or the bucket.
	if cask.SkipUpload != "auto" || len(rc.Scoops) == 1 && rc.Scoops[0].SkipUpload != "auto" {
		t.Error("the cask and the scoop manifest should have skip_upload: auto")
	}

	// No credential is written in the file: tokens come from the release
	// job's environment.
	for _, section := range []string{"homebrew_casks", "scoops"} {
		for _, entry := range all[section].([]any) {
			repo, _ := entry.(map[string]any)["repository"].(map[string]any)
			if tok, ok := repo["token"].(string); ok && !strings.Contains(tok, ".Env.") {
				t.Errorf("%s has a literal token", section)
			}
		}
	}
}
