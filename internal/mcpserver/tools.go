package mcpserver

import (
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// Tools returns the registered tools in a stable order. fibe_playgrounds_exec
// and fibe_api join this list as a few lines each once the terminal channel
// and the client's generic request exist.
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
	return s
}

var (
	handleSchema = schemaOf[client.AsyncHandle]()
	anyObject    = &jsonschema.Schema{Type: "object"}
)

// orHandle is the output of an async tool: the result, or with
// "wait": false the 202 handle.
func orHandle(s *jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, handleSchema}}
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
