package mcpinstall

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var entry = Entry{Command: "/opt/fibe/bin/fibe", Args: []string{"--api-url", "local", "mcp", "serve"}}

// before is a client's file as a user left it, with servers of their own.
var before = map[string]string{
	"claude-code": `{
  "mcpServers": {
    "other": {
      "type": "stdio",
      "command": "other-server",
      "args": []
    }
  },
  "theme": "dark"
}
`,
	"claude-desktop": `{
  "globalShortcut": "Cmd+Space",
  "mcpServers": {
    "files": {
      "command": "npx",
      "args": [
        "files-server"
      ]
    }
  }
}
`,
	"cursor": `{
  "mcpServers": {}
}
`,
	"vscode": `{
  "inputs": [],
  "servers": {
    "github": {
      "type": "http",
      "url": "https://example.test/mcp"
    }
  }
}
`,
	"codex": `# my codex settings
model = "o4-mini"

[mcp_servers.docs]
command = "docs-server" # keep this comment
args = ["--port", "1"]

[profiles.fast]
model = "small"
`,
}

func envFor(t *testing.T, goos string) Env {
	dir := t.TempDir()
	return Env{GOOS: goos, Home: filepath.Join(dir, "home"), Dir: filepath.Join(dir, "project"), Getenv: func(string) string { return "" }}
}

func TestInstallMergesKeepsAndIsIdempotent(t *testing.T) {
	for _, name := range Clients {
		t.Run(name, func(t *testing.T) {
			goos := "linux"
			if name == "claude-desktop" {
				goos = "darwin"
			}
			tg, err := Locate(name, "", envFor(t, goos))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(tg.Path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tg.Path, []byte(before[name]), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Install(tg, entry)
			if err != nil || !res.Changed || res.Backup == "" {
				t.Fatalf("install: %+v %v", res, err)
			}
			got := read(t, tg.Path)
			golden(t, name, got)
			if b := read(t, res.Backup); b != before[name] {
				t.Fatalf("backup differs from the original:\n%s", b)
			}
			if st, _ := os.Stat(tg.Path); st.Mode().Perm() != 0o644 {
				t.Fatalf("mode changed to %v", st.Mode().Perm())
			}

			again, err := Install(tg, entry)
			if err != nil || again.Changed || again.Backup != "" || read(t, tg.Path) != got {
				t.Fatalf("second install changed something: %+v %v", again, err)
			}

			un, err := Uninstall(tg)
			if err != nil || !un.Changed {
				t.Fatalf("uninstall: %+v %v", un, err)
			}
			if after := read(t, tg.Path); after != before[name] {
				t.Fatalf("uninstall left:\n%s\nwant the original:\n%s", after, before[name])
			}
			if un, err := Uninstall(tg); err != nil || un.Changed {
				t.Fatalf("second uninstall: %+v %v", un, err)
			}
		})
	}
}

func TestInstallCreatesAMissingFile(t *testing.T) {
	tg, err := Locate("cursor", "user", envFor(t, "linux"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Install(tg, entry)
	if err != nil || !res.Changed || res.Backup != "" {
		t.Fatalf("%+v %v", res, err)
	}
	snippet, _ := Snippet(tg, entry)
	if got := read(t, tg.Path); got != string(snippet) {
		t.Fatalf("file\n%s\nsnippet\n%s", got, snippet)
	}
	if st, _ := os.Stat(tg.Path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
}

func TestInstallRefusesWhatItCannotParse(t *testing.T) {
	tg, _ := Locate("vscode", "", envFor(t, "linux"))
	_ = os.MkdirAll(filepath.Dir(tg.Path), 0o755)
	jsonc := "{\n  // a comment\n  \"servers\": {}\n}\n"
	_ = os.WriteFile(tg.Path, []byte(jsonc), 0o644)
	if _, err := Install(tg, entry); err == nil || !strings.Contains(err.Error(), "not plain JSON") {
		t.Fatalf("err %v", err)
	}
	if read(t, tg.Path) != jsonc {
		t.Fatal("the file was changed")
	}
}

func TestLocate(t *testing.T) {
	env := Env{GOOS: "linux", Home: "/h", Dir: "/p", Getenv: func(k string) string {
		return map[string]string{"CODEX_HOME": "/c", "XDG_CONFIG_HOME": "/x"}[k]
	}}
	for _, c := range []struct{ client, scope, path, key string }{
		{"claude-code", "", "/p/.mcp.json", "mcpServers"},
		{"claude-code", "user", "/h/.claude.json", "mcpServers"},
		{"cursor", "", "/p/.cursor/mcp.json", "mcpServers"},
		{"cursor", "user", "/h/.cursor/mcp.json", "mcpServers"},
		{"vscode", "", "/p/.vscode/mcp.json", "servers"},
		{"vscode", "user", "/x/Code/User/mcp.json", "servers"},
		{"codex", "", "/c/config.toml", "mcp_servers"},
	} {
		tg, err := Locate(c.client, c.scope, env)
		if err != nil || tg.Path != filepath.FromSlash(c.path) || tg.Key != c.key {
			t.Errorf("%s %s: %+v %v", c.client, c.scope, tg, err)
		}
	}
	for _, c := range []struct{ client, scope, goos string }{
		{"claude-desktop", "", "linux"}, {"claude-desktop", "project", "darwin"}, {"codex", "project", "linux"},
		{"nope", "", "linux"}, {"cursor", "global", "linux"},
	} {
		env.GOOS = c.goos
		if _, err := Locate(c.client, c.scope, env); err == nil {
			t.Errorf("%s %s on %s: no error", c.client, c.scope, c.goos)
		}
	}
	env.GOOS = "windows"
	env.Getenv = func(k string) string { return map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`}[k] }
	if tg, err := Locate("claude-desktop", "", env); err != nil || !strings.HasSuffix(tg.Path, "claude_desktop_config.json") {
		t.Errorf("windows desktop: %+v %v", tg, err)
	}
}

func TestCodexInlineEntryIsRewritten(t *testing.T) {
	tg, _ := Locate("codex", "", envFor(t, "linux"))
	_ = os.MkdirAll(filepath.Dir(tg.Path), 0o755)
	_ = os.WriteFile(tg.Path, []byte("mcp_servers = { fibe = { command = \"old\" } }\n"), 0o644)
	if _, err := Install(tg, entry); err != nil {
		t.Fatal(err)
	}
	have, ok, err := ourEntry([]byte(read(t, tg.Path)))
	if err != nil || !ok || have["command"] != entry.Command {
		t.Fatalf("%v %v %v\n%s", have, ok, err, read(t, tg.Path))
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/mcpinstall -update)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Fatalf("%s differs from %s:\n%s", name, path, got)
	}
}
