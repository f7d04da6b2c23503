package mcpinstall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// Codex keeps MCP servers in config.toml as [mcp_servers.<name>] tables.
// Our table is edited as text so the rest of the file (comments, order)
// is kept; the TOML library encodes our values and checks every result.

type tomlEntry struct {
	Command string   `toml:"command"`
	Args    []string `toml:"args"`
}

func tomlSnippet(e Entry) ([]byte, error) {
	args := e.Args
	if args == nil {
		args = []string{}
	}
	body, err := toml.Marshal(tomlEntry{Command: e.Command, Args: args})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("[mcp_servers." + Name + "]\n")
	b.Write(body)
	if len(e.Env) > 0 {
		env, err := toml.Marshal(e.Env)
		if err != nil {
			return nil, err
		}
		b.WriteString("\n[mcp_servers." + Name + ".env]\n")
		b.Write(env)
	}
	return b.Bytes(), nil
}

// ourEntry is the [mcp_servers.fibe] table of a document, as plain values.
func ourEntry(data []byte) (map[string]any, bool, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, false, fmt.Errorf("not valid TOML: %v", err)
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	entry, ok := servers[Name].(map[string]any)
	return entry, ok, nil
}

// normal turns a decoded value into JSON-shaped values for comparison.
func normal(v any) any {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func wantEntry(e Entry) map[string]any {
	want := map[string]any{"command": e.Command, "args": e.Args}
	if e.Args == nil {
		want["args"] = []string{}
	}
	if len(e.Env) > 0 {
		want["env"] = e.Env
	}
	return want
}

func tomlInstall(old []byte, e Entry) ([]byte, error) {
	have, ok, err := ourEntry(old)
	if err != nil {
		return nil, err
	}
	want := wantEntry(e)
	if ok && reflect.DeepEqual(normal(have), normal(want)) {
		return old, nil
	}
	snippet, err := tomlSnippet(e)
	if err != nil {
		return nil, err
	}
	text := removeTable(old)
	if _, still, err := ourEntry(text); err != nil || still {
		// Our entry is written some other way (inline): rewrite the document.
		return rewrite(old, want)
	}
	text = bytes.TrimRight(text, "\n")
	if len(text) > 0 {
		text = append(text, "\n\n"...)
	}
	text = append(text, snippet...)
	if got, ok, err := ourEntry(text); err != nil || !ok || !reflect.DeepEqual(normal(got), normal(want)) {
		return rewrite(old, want)
	}
	return text, nil
}

func tomlUninstall(old []byte) ([]byte, error) {
	if _, ok, err := ourEntry(old); err != nil || !ok {
		return old, err
	}
	text := removeTable(old)
	if _, still, err := ourEntry(text); err != nil || still {
		return rewrite(old, nil)
	}
	return text, nil
}

// rewrite sets (or, with want nil, removes) our entry through the TOML
// library; comments are lost, the backup keeps them.
func rewrite(old []byte, want map[string]any) ([]byte, error) {
	var doc map[string]any
	if err := toml.Unmarshal(old, &doc); err != nil {
		return nil, err
	}
	if doc == nil {
		doc = map[string]any{}
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	if want == nil {
		delete(servers, Name)
	} else {
		servers[Name] = want
	}
	doc["mcp_servers"] = servers
	return toml.Marshal(doc)
}

// ourHeader matches [mcp_servers.fibe] and its sub-tables.
var ourHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(fibe|"fibe"|'fibe')\s*(\]|\.)`)
})

// removeTable drops our table and its sub-tables, with the blank lines
// just before them, keeping every other line as it was.
func removeTable(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var out, skipped []string
	skipping := false
	for _, line := range lines {
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			ours := ourHeader().MatchString(line)
			if ours && !skipping {
				for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
					out = out[:len(out)-1]
				}
			}
			if !ours && skipping {
				// Keep the blank lines that separated our table from this one.
				for i := len(skipped); i > 0 && strings.TrimSpace(skipped[i-1]) == ""; i-- {
					out = append(out, "\n")
				}
			}
			skipping, skipped = ours, nil
			if ours {
				continue
			}
		}
		if skipping {
			skipped = append(skipped, line)
			continue
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, ""))
}
