package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/present"
)

// CodeInvalidArgument is the code of a value the input schema cannot judge.
const CodeInvalidArgument = "INVALID_ARGUMENT"

// successResult is what `--json` prints for the same command, as the
// structured content and, indented, as the text content.
func successResult(c *call, out any) (*mcp.CallToolResult, error) {
	compact, err := marshal(out)
	if err != nil {
		return nil, err
	}
	var text bytes.Buffer
	if err := json.Indent(&text, compact, "", "  "); err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text.String()}},
		StructuredContent: json.RawMessage(compact),
	}
	if c.resp != nil && c.resp.Replayed {
		res.Meta = mcp.Meta{"idempotent_replayed": true}
	}
	return res, nil
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
// the CLI's own builder, with "resume" in MCP terms, and the one-line
// human form as text.
func errorResult(c *call, err error) *mcp.CallToolResult {
	doc := errorDocument(c.tool.Name, c.args, err)
	data, mErr := marshal(doc)
	if mErr != nil {
		data = []byte(`{"error":{"code":"ERROR","message":"unprintable error"}}`)
	}
	res := &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "Error: " + errorLine(doc)}},
		StructuredContent: json.RawMessage(data),
	}
	if ce, ok := client.AsError(err); ok && ce.Replayed {
		res.Meta = mcp.Meta{"idempotent_replayed": true}
	}
	return res
}

// ErrorDocument is {"error": {...}}: present.ErrorBodyOf's fields, then
// "resume" (the tool call that resumes the operation, or null).
func errorDocument(tool string, args json.RawMessage, err error) map[string]any {
	body := map[string]any{}
	if data, mErr := json.Marshal(present.ErrorBodyOf(err)); mErr == nil {
		_ = json.Unmarshal(data, &body)
	}
	var ae *argError
	if errors.As(err, &ae) {
		body["code"] = CodeInvalidArgument
		body["details"] = map[string]any{"field": ae.field}
	}
	if r := resumeOf(tool, args, err); r != nil {
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

// resumeOf words the client's resume data as a tool call: wait on the
// accepted operation, or call the same tool again with the same key (the
// server replays the first answer if it was applied).
func resumeOf(tool string, args json.RawMessage, err error) *Resume {
	ce, ok := client.AsError(err)
	if !ok {
		return nil
	}
	waitID, key := "", ""
	if r := ce.Resume; r != nil {
		waitID, key = r.WaitRequestID, r.IdempotencyKey
	}
	if waitID == "" && ce.AsyncRequestID != "" && (ce.Code == client.CodeAsyncTimeout || ce.Code == client.CodeCancelled) {
		waitID = ce.AsyncRequestID
	}
	if waitID == "" && key == "" && ce.OutcomeUnknown && ce.IdempotencyKey != "" {
		key = ce.IdempotencyKey
	}
	switch {
	case waitID != "":
		return &Resume{Tool: "fibe_ops_wait", Arguments: map[string]any{"request_id": waitID}}
	case key != "":
		again := map[string]any{}
		_ = json.Unmarshal(args, &again)
		if again == nil {
			again = map[string]any{}
		}
		again["idempotency_key"] = key
		return &Resume{Tool: tool, Arguments: again}
	}
	return nil
}

// errorLine is "CODE: message (request req_x)", on one line.
func errorLine(doc map[string]any) string {
	body, _ := doc["error"].(map[string]any)
	code, _ := body["code"].(string)
	msg, _ := body["message"].(string)
	line := code + ": " + msg
	if id, _ := body["request_id"].(string); id != "" {
		line += " (request " + id + ")"
	}
	return strings.Join(strings.Fields(line), " ")
}
