package mcpserver

import (
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// The tool sets of --tools (setting mcp_tools).
const (
	ToolsCore = "core"
	ToolsFull = "full"
)

// coreTools are the tools docs/mcp-tools.md names: the core set.
var coreTools = map[string]bool{
	"fibe_playgrounds_list": true, "fibe_playgrounds_get": true, "fibe_playgrounds_create": true,
	"fibe_playgrounds_update": true, "fibe_playgrounds_delete": true, "fibe_playgrounds_action": true,
	"fibe_playgrounds_stop": true, "fibe_playgrounds_exec": true, "fibe_playgrounds_status": true,
	"fibe_playgrounds_wait": true, "fibe_playgrounds_logs": true, "fibe_logs_follow": true,
	"fibe_marquees_list": true, "fibe_marquees_get": true, "fibe_marquees_create": true,
	"fibe_marquees_update": true, "fibe_marquees_delete": true, "fibe_marquees_test_connection": true,
	"fibe_ops_get": true, "fibe_ops_wait": true, "fibe_breaker_status": true, "fibe_breaker_reset": true,
	"fibe_api": true, "fibe_whoami": true,
}

// ToolSet is the tools of a set: core, or full (every tool the server
// has; as resources gain tools of their own, only full lists them).
func ToolSet(name string) []*Tool {
	if name == ToolsFull {
		return Tools()
	}
	var out []*Tool
	for _, t := range Tools() {
		if coreTools[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// Tools returns every tool the server has, in a stable order, built on
// the first call.
func Tools() []*Tool {
	toolsOnce.Do(func() { tools = buildTools() })
	return tools
}

var (
	toolsOnce sync.Once
	tools     []*Tool
)

func buildTools() []*Tool {
	return []*Tool{
		pgList(), pgGet(), pgCreate(), pgUpdate(), pgDelete(), pgAction(), pgStop(),
		pgExec(), pgStatus(), pgWait(), pgLogs(), logsFollow(),
		mqList(), mqGet(), mqCreate(), mqUpdate(), mqDelete(), mqTestConnection(),
		opsGet(), opsWait(),
		breakerStatus(), breakerReset(),
		whoami(), api(),
	}
}

// Output schemas, inferred from the client's types (what --json prints).
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	noBooleanSchemas(s)
	return s
}

// noBooleanSchemas gives every schema that would be written as the
// boolean true (a field of any type) a description, so it is written as
// an object: MCP clients refuse an output schema whose properties are not
// objects.
func noBooleanSchemas(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if data, err := json.Marshal(s); err == nil && string(data) == "true" {
		s.Description = "any JSON value"
		return
	}
	for _, p := range s.Properties {
		noBooleanSchemas(p)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, s.PrefixItems} {
		for _, c := range list {
			noBooleanSchemas(c)
		}
	}
	for _, d := range s.Defs {
		noBooleanSchemas(d)
	}
	noBooleanSchemas(s.Items)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not == nil {
		noBooleanSchemas(s.AdditionalProperties)
	}
}

// handleSchema is the 202 handle's schema, built when first asked for.
var handleSchema = sync.OnceValue(schemaOf[client.AsyncHandle])

// anyObject is the output schema of a tool whose result is any JSON object.
func anyObject() *jsonschema.Schema { return &jsonschema.Schema{Type: "object"} }

// orHandle is the output of an async tool: the result, or with
// "wait": false the 202 handle (or the hand-off handle of a call that ran
// out of its budget). Still an object schema at the top, as MCP requires.
func orHandle(s *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", AnyOf: []*jsonschema.Schema{s, handleSchema(), handoffSchema()}}
}

// orHandoff is the output of a wait tool: the result, or the hand-off
// handle when the call's budget ends first.
func orHandoff(s *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", AnyOf: []*jsonschema.Schema{s, handoffSchema()}}
}

// listPage is a list tool's structured result: MCP wants an object, so the
// items are wrapped with the paging facts the API gave (docs/mcp-tools.md).
// Its text content is the bare list, exactly what --json prints.
type listPage[T any] struct {
	Items   []T  `json:"items"`
	Page    *int `json:"page,omitempty"`
	PerPage *int `json:"per_page,omitempty"`
	Total   *int `json:"total,omitempty"`
}

func (l listPage[T]) jsonText() any { return l.Items }

// listSchema is the output schema of a list of T.
func listSchema[T any]() *jsonschema.Schema { return schemaOf[listPage[T]]() }

// listed is a list tool's result: every page with all, else one; an empty
// list is [], as --json prints it.
func listed[T any](all bool, every func() ([]T, error), page func() ([]T, *client.ListMeta, error)) (any, error) {
	var out listPage[T]
	var err error
	if all {
		out.Items, err = every()
		out.Total = ptr(len(out.Items))
	} else {
		var meta *client.ListMeta
		out.Items, meta, err = page()
		if meta != nil {
			out.Page, out.PerPage, out.Total = nonZero(meta.Page), nonZero(meta.PerPage), nonZero(meta.Total)
		}
	}
	if err != nil {
		return nil, err
	}
	if out.Items == nil {
		out.Items = []T{}
	}
	return out, nil
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func pgRef(in *jsonschema.Schema) {
	in.Properties["playground"].Description = "Playground id or name"
}

func mqRef(in *jsonschema.Schema) {
	in.Properties["marquee"].Description = "Marquee id or name"
}

// listArgs are the paging arguments of list tools.
type listArgs struct {
	Page    int  `json:"page,omitempty" jsonschema:"Page to return (default 1)"`
	PerPage int  `json:"per_page,omitempty" jsonschema:"Items per page (default: the server's)"`
	All     bool `json:"all,omitempty" jsonschema:"Fetch every page (not with page)"`
}

func (l listArgs) validate() error {
	if l.All && l.Page > 0 {
		return invalidArgument("page", "all and page cannot be used together")
	}
	return nil
}

func listRanges(in *jsonschema.Schema) {
	in.Properties["page"].Minimum = ptr(1.0)
	in.Properties["per_page"].Minimum = ptr(1.0)
	in.Properties["per_page"].Maximum = ptr(1000.0)
}

func (l listArgs) options() client.ListOptions {
	return client.ListOptions{Page: l.Page, PerPage: l.PerPage}
}
