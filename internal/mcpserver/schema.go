package mcpserver

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// Output schemas, inferred from the client's types (what --json prints).
func schemaOf[T any]() *jsonschema.Schema { return schemaFor(reflect.TypeFor[T]()) }

// schemaFor is schemaOf of a type known at run time (a resource's Item).
func schemaFor(t reflect.Type) *jsonschema.Schema {
	s, err := jsonschema.ForType(t, nil)
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
func listSchema[T any]() *jsonschema.Schema { return listSchemaFor(reflect.TypeFor[T]()) }

// listSchemaFor is the output schema of a list of item: listPage's
// fields, with items of that type.
func listSchemaFor(item reflect.Type) *jsonschema.Schema {
	page := reflect.TypeFor[listPage[struct{}]]()
	fields := make([]reflect.StructField, page.NumField())
	for i := range fields {
		fields[i] = page.Field(i)
	}
	fields[0].Type = reflect.SliceOf(item)
	return schemaFor(reflect.StructOf(fields))
}

// itemsPage is listPage of items whose type is known at run time: the
// slice a resource's List returns.
type itemsPage struct {
	Items   any  `json:"items"`
	Page    *int `json:"page,omitempty"`
	PerPage *int `json:"per_page,omitempty"`
	Total   *int `json:"total,omitempty"`
}

func (l itemsPage) jsonText() any { return l.Items }

// listedItems is a generated list tool's result: every page with all, else
// one; an empty list is [], as --json prints it.
func listedItems(all bool, every func() (any, error), page func() (any, *client.ListMeta, error)) (any, error) {
	var out itemsPage
	var err error
	if all {
		out.Items, err = every()
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
	v := reflect.ValueOf(out.Items)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.IsNil() {
		out.Items = []any{}
	} else if all {
		out.Total = ptr(v.Len())
	}
	if all && out.Total == nil {
		out.Total = ptr(0)
	}
	return out, nil
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
