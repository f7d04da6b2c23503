package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// textual is a result whose text content is not its structured content:
// a list, wrapped as an object for structuredContent, prints as the bare
// list --json prints.
type textual interface{ jsonText() any }

// successResult is what `--json` prints for the same command, indented, as
// the text content, and as the structured content an object, as MCP
// requires: a list becomes {"items": [...]} with the paging facts, any
// other value that is not an object {"value": ...} (docs/mcp-tools.md).
func successResult(c *call, out any) (*mcp.CallToolResult, error) {
	structured, err := marshal(out)
	if err != nil {
		return nil, err
	}
	compact := structured
	if t, ok := out.(textual); ok {
		if compact, err = marshal(t.jsonText()); err != nil {
			return nil, err
		}
	}
	structured = asObject(structured)
	var text bytes.Buffer
	if err := json.Indent(&text, compact, "", "  "); err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text.String()}},
		StructuredContent: json.RawMessage(structured),
	}
	if c.resp != nil && c.resp.Replayed {
		res.Meta = mcp.Meta{"idempotent_replayed": true}
	}
	return res, nil
}

// asObject wraps compact JSON that is not an object: an array as
// {"items": [...]}, anything else as {"value": ...}.
func asObject(compact []byte) []byte {
	switch {
	case len(compact) > 0 && compact[0] == '{':
		return compact
	case len(compact) > 0 && compact[0] == '[':
		return append(append([]byte(`{"items":`), compact...), '}')
	default:
		return append(append([]byte(`{"value":`), compact...), '}')
	}
}

// marshal encodes like the CLI's --json: no HTML escaping.
func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// errorResult is a tool error: the CLI's JSON error document, built by
// the CLI's own builder, with "resume" in MCP terms, and the CLI's one-line
// human form as text.
func errorResult(c *call, err error) *mcp.CallToolResult {
	doc := errorDocument(c.tool.Name, c.args, err)
	data, mErr := marshal(doc)
	if mErr != nil {
		data = []byte(`{"error":{"code":"ERROR","message":"unprintable error"}}`)
	}
	line := output.ErrorLine(err)
	var ae *argError
	if errors.As(err, &ae) {
		line = client.CodeInvalidArgument + ": " + strings.Join(strings.Fields(ae.Error()), " ")
	}
	res := &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "Error: " + line}},
		StructuredContent: json.RawMessage(data),
	}
	if ce, ok := client.AsError(err); ok && ce.Replayed {
		res.Meta = mcp.Meta{"idempotent_replayed": true}
	}
	return res
}

// errorDocument is {"error": {...}}: output.ErrorBodyOf's fields, with
// "resume" (what output says resumes it) worded as the tool call that
// does, or null.
func errorDocument(tool string, args json.RawMessage, err error) map[string]any {
	eb := output.ErrorBodyOf(err)
	body := map[string]any{}
	if data, mErr := json.Marshal(eb); mErr == nil {
		_ = json.Unmarshal(data, &body)
	}
	var ae *argError
	if errors.As(err, &ae) {
		body["code"] = client.CodeInvalidArgument
		body["details"] = map[string]any{"field": ae.field}
	}
	if r := toolResume(tool, args, eb.Resume); r != nil {
		body["resume"] = r
	} else {
		body["resume"] = nil
	}
	return map[string]any{"error": body}
}

// Resume is a tool call that continues an operation that did not end.
type Resume struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// toolResume words the resume data as a tool call: wait on the accepted
// operation, or call the same tool again with the same key (the server
// replays the first answer if it was applied).
func toolResume(tool string, args json.RawMessage, r *client.Resume) *Resume {
	switch {
	case r == nil:
		return nil
	case r.WaitRequestID != "":
		return &Resume{Tool: "fibe_ops_wait", Arguments: map[string]any{"request_id": r.WaitRequestID}}
	case r.IdempotencyKey != "":
		again := map[string]any{}
		_ = json.Unmarshal(args, &again)
		if again == nil {
			again = map[string]any{}
		}
		again["idempotency_key"] = r.IdempotencyKey
		return &Resume{Tool: tool, Arguments: again}
	}
	return nil
}
