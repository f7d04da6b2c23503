// Package mcpinstall adds fibe's MCP server to an MCP client's own
// configuration file, and removes it: Claude Code, Claude Desktop, Cursor,
// VS Code (JSON, each with its own key) and Codex (TOML). It keeps
// everything else in the file, backs the file up before changing it, and
// changes nothing when the entry is already there. The API key never goes
// into a client's configuration: the server resolves it as the CLI does.
package mcpinstall

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fibegg/fibe/internal/statefile"
)

// Entry is what a client runs: the command, its arguments, extra env.
type Entry struct {
	Command string
	Args    []string
	Env     map[string]string
}

// Clients are the supported client names.
var Clients = []string{"claude-code", "claude-desktop", "cursor", "vscode", "codex"}

// Scopes.
const (
	ScopeProject = "project"
	ScopeUser    = "user"
)

// Target is one client's configuration file and the key our entry lives under.
type Target struct {
	Client string
	Scope  string
	Path   string
	TOML   bool
	// Key is the object holding the servers: mcpServers, servers, mcp_servers.
	Key string
	// Type is the "type" field some clients want ("stdio"), or "".
	Type string
}

// Env is what Locate needs to know of the machine.
type Env struct {
	GOOS   string
	Home   string
	Dir    string              // the project directory (working directory)
	Getenv func(string) string // nil → no variables
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// UsageError is a client name or scope that cannot be served.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &UsageError{msg: fmt.Sprintf(format, args...)} }

// Locate finds a client's configuration file for a scope ("" → the
// client's default: project where the client has project files).
func Locate(clientName, scope string, env Env) (Target, error) {
	t := Target{Client: clientName, Scope: scope}
	project := func(def bool) bool {
		if t.Scope == "" {
			if def {
				t.Scope = ScopeProject
			} else {
				t.Scope = ScopeUser
			}
		}
		return t.Scope == ScopeProject
	}
	if scope != "" && scope != ScopeProject && scope != ScopeUser {
		return t, usagef("invalid --scope %q: project or user", scope)
	}
	switch clientName {
	case "claude-code":
		// Project: .mcp.json, shared with the team. User: ~/.claude.json.
		t.Key, t.Type = "mcpServers", "stdio"
		if project(true) {
			t.Path = filepath.Join(env.Dir, ".mcp.json")
		} else {
			t.Path = filepath.Join(env.Home, ".claude.json")
		}
	case "claude-desktop":
		t.Key = "mcpServers"
		if scope == ScopeProject {
			return t, usagef("claude-desktop has no project configuration: use --scope user")
		}
		t.Scope = ScopeUser
		switch env.GOOS {
		case "darwin":
			t.Path = filepath.Join(env.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
		case "windows":
			t.Path = filepath.Join(appData(env), "Claude", "claude_desktop_config.json")
		default:
			return t, usagef("Claude Desktop exists only on macOS and Windows")
		}
	case "cursor":
		t.Key = "mcpServers"
		if project(true) {
			t.Path = filepath.Join(env.Dir, ".cursor", "mcp.json")
		} else {
			t.Path = filepath.Join(env.Home, ".cursor", "mcp.json")
		}
	case "vscode":
		t.Key, t.Type = "servers", "stdio"
		if project(true) {
			t.Path = filepath.Join(env.Dir, ".vscode", "mcp.json")
			break
		}
		switch env.GOOS {
		case "darwin":
			t.Path = filepath.Join(env.Home, "Library", "Application Support", "Code", "User", "mcp.json")
		case "windows":
			t.Path = filepath.Join(appData(env), "Code", "User", "mcp.json")
		default:
			cfg := env.getenv("XDG_CONFIG_HOME")
			if cfg == "" {
				cfg = filepath.Join(env.Home, ".config")
			}
			t.Path = filepath.Join(cfg, "Code", "User", "mcp.json")
		}
	case "codex":
		t.Key, t.TOML = "mcp_servers", true
		if scope == ScopeProject {
			return t, usagef("codex reads MCP servers from its user configuration only: use --scope user")
		}
		t.Scope = ScopeUser
		dir := env.getenv("CODEX_HOME")
		if dir == "" {
			dir = filepath.Join(env.Home, ".codex")
		}
		t.Path = filepath.Join(dir, "config.toml")
	default:
		return t, usagef("unknown client %q: one of %s", clientName, strings.Join(Clients, ", "))
	}
	return t, nil
}

func appData(env Env) string {
	if d := env.getenv("APPDATA"); d != "" {
		return d
	}
	return filepath.Join(env.Home, "AppData", "Roaming")
}

// Name is our entry's name in every client.
const Name = "fibe"

// Result says what Install or Uninstall did.
type Result struct {
	Path    string // the file
	Changed bool   // false: it already was as wanted
	Backup  string // the copy of the previous file, "" when there was none
}

// Snippet is the text of our entry as it would appear in the file.
func Snippet(t Target, e Entry) ([]byte, error) {
	if t.TOML {
		return tomlSnippet(e)
	}
	return jsonSnippet(t, e)
}

// Install merges our entry into the target's file.
func Install(t Target, e Entry) (Result, error) {
	return edit(t, func(old []byte) ([]byte, error) {
		if t.TOML {
			return tomlInstall(old, e)
		}
		return jsonInstall(old, t, e)
	})
}

// Uninstall removes our entry (and nothing else) from the target's file.
func Uninstall(t Target) (Result, error) {
	return edit(t, func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, nil
		}
		if t.TOML {
			return tomlUninstall(old)
		}
		return jsonUninstall(old, t)
	})
}

// edit applies change to the file's bytes (nil when it does not exist) and
// writes the result, after a backup, unless it is the same.
func edit(t Target, change func(old []byte) ([]byte, error)) (Result, error) {
	res := Result{Path: t.Path}
	old, err := os.ReadFile(t.Path)
	if errors.Is(err, fs.ErrNotExist) {
		old = nil
	} else if err != nil {
		return res, err
	}
	updated, err := change(old)
	if err != nil {
		return res, fmt.Errorf("%s: %w", t.Path, err)
	}
	if updated == nil || bytes.Equal(updated, old) {
		return res, nil
	}
	perm := os.FileMode(0o600)
	if old != nil {
		if st, err := os.Stat(t.Path); err == nil {
			perm = st.Mode().Perm()
		}
		res.Backup = t.Path + ".bak"
		if err := statefile.WriteAtomic(res.Backup, old, perm, true); err != nil {
			return res, fmt.Errorf("backing up %s: %w", t.Path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(t.Path), 0o755); err != nil {
		return res, err
	}
	if err := statefile.WriteAtomic(t.Path, updated, perm, true); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}
