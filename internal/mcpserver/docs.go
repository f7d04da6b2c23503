package mcpserver

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DocsMarkdown is docs/mcp-tools.md: every registered tool with its hints
// and arguments, generated from the registry so it cannot drift.
func docsMarkdown() string {
	var b strings.Builder
	b.WriteString("# MCP tools\n\n")
	b.WriteString("<!-- Generated from the registered tools by `go test ./internal/mcpserver -run TestToolDocs -update`; do not edit. -->\n\n")
	b.WriteString("`fibe mcp serve` offers these tools. Durations are in seconds. Every tool's input and output\n")
	b.WriteString("schemas are in `tools/list`; successes are exactly what `--json` prints for the same command,\n")
	b.WriteString("failures are `isError` results holding `{\"error\": {code, message, status, request_id, details,\n")
	b.WriteString("retryable, idempotency_key, resume}}`.\n\n")
	b.WriteString(summary())
	for _, t := range Tools() {
		fmt.Fprintf(&b, "\n## `%s`\n\n%s\n\n", t.Name, t.Description)
		fmt.Fprintf(&b, "Hints: %s.\n\n", strings.Join(hints(t), ", "))
		props := t.Input.Properties
		if len(props) == 0 {
			b.WriteString("No arguments.\n")
			continue
		}
		b.WriteString("| argument | type | required | description |\n|---|---|---|---|\n")
		required := map[string]bool{}
		for _, r := range t.Input.Required {
			required[r] = true
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			if required[names[i]] != required[names[j]] {
				return required[names[i]]
			}
			return names[i] < names[j]
		})
		for _, n := range names {
			p := props[n]
			req := ""
			if required[n] {
				req = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", n, typeOf(p), req, cell(describe(p)))
		}
	}
	return b.String()
}

// Summary is the table of tool names and what they do (README).
func summary() string {
	var b strings.Builder
	b.WriteString("| tool | does |\n|---|---|\n")
	for _, t := range Tools() {
		desc := t.Description
		if i := strings.Index(desc, ". "); i > 0 {
			desc = desc[:i+1]
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", t.Name, cell(desc))
	}
	return b.String()
}

func hints(t *Tool) []string {
	var h []string
	switch {
	case t.ReadOnly:
		h = append(h, "read-only")
	case t.Destructive:
		h = append(h, "destructive (needs `confirm: true`)")
	default:
		h = append(h, "mutating")
	}
	if t.Idempotent {
		h = append(h, "idempotent")
	}
	if t.Local {
		h = append(h, "local state only")
	}
	return h
}

func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		if s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Type != "" {
			return "object of " + s.AdditionalProperties.Type
		}
		return s.Type
	}
	return strings.Join(s.Types, " or ")
}

func describe(s *jsonschema.Schema) string {
	d := s.Description
	var extra []string
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = fmt.Sprintf("`%v`", v)
		}
		extra = append(extra, "one of "+strings.Join(vals, ", "))
	}
	if s.Minimum != nil && s.Maximum != nil {
		extra = append(extra, fmt.Sprintf("%g to %g", *s.Minimum, *s.Maximum))
	}
	if len(s.Default) > 0 {
		var v any
		if json.Unmarshal(s.Default, &v) == nil {
			extra = append(extra, fmt.Sprintf("default `%v`", v))
		}
	}
	if len(extra) > 0 {
		if d != "" {
			d += " "
		}
		d += "(" + strings.Join(extra, "; ") + ")"
	}
	return d
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
