package resource

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/fibegg/fibe/internal/client"
)

// Kind says what a field holds and how a door's value of it goes on the
// wire.
type Kind int

const (
	// String is sent as given; an empty string is not sent.
	String Kind = iota
	// Int is an integer within the field's bounds.
	Int
	// Bool is true or false.
	Bool
	// Ref is an id or a name of another resource: a number is sent as a
	// number (IDOrName).
	Ref
	// Env is a set of environment overrides: KEY=VALUE pairs on the command
	// line, an object of strings on the wire.
	Env
	// File names a file whose content is sent; the content is write-only
	// and never shown back.
	File
	// Strings is a list of strings: a repeatable flag on the command line,
	// an array on the wire.
	Strings
)

// Field is one attribute a verb may send.
type Field struct {
	// Wire is the name in the request body ("playspec_id").
	Wire string
	// Arg is the name every door gives it: the flag (--playspec), the MCP
	// argument ("playspec"), the console's form field, the SDK's parameter.
	Arg  string
	Kind Kind
	// Help is one line, the same on every door.
	Help string
	// On lists the verbs that take the field (VerbCreate, VerbUpdate).
	On []Verb
	// Required on create: a create without it is refused before anything is
	// sent.
	Required bool
	// Enum, when set, are the only values allowed.
	Enum []string
	// Min and Max bound an Int (both zero: no bounds); Max alone bounds a
	// String's length in characters.
	Min, Max int
	// Example is a valid value (for a Strings field, one item), for the
	// tests that send every field.
	Example string
	// MaxLen bounds a String's length in characters (0: no bound).
	MaxLen int
	// Pattern, when set, is a regular expression a String must match as a
	// whole; PatternHelp says it in words ("letters, digits, _ and -").
	Pattern, PatternHelp string
	// WriteOnly fields (keys, secrets) are sent and never printed back.
	WriteOnly bool
	// Refers names the resource a Ref points at ("playspecs"), for
	// completion and help.
	Refers string
	// Check, when set, is a further rule on a String or File field's
	// value (a File's content), wherever the value came from: a flag, a
	// payload, an SDK parameter. Its error's text is the problem
	// ("is not valid YAML: line 2, column 3: ...").
	Check func(value string) error
}

// Takes reports whether verb v takes the field.
func (f Field) Takes(v Verb) bool { return slices.Contains(f.On, v) }

// Verb is one of the generic verbs a resource may serve.
type Verb string

// The generic verbs.
const (
	VerbList   Verb = "list"
	VerbGet    Verb = "get"
	VerbCreate Verb = "create"
	VerbUpdate Verb = "update"
	VerbDelete Verb = "delete"
)

// GenericFilter is one of the list filters every list takes unless its
// description says otherwise (Resource.ListLacks; docs/api.md, Lists).
// Status and sort are said by Statuses and SortKeys.
type GenericFilter int

const (
	// FilterName keeps the items whose name contains a text (--name).
	FilterName GenericFilter = 1 << iota
	// FilterSearch keeps the items where a text is found (--search, q).
	FilterSearch
	// FilterCreated bounds the items' creation time (--created-after,
	// --created-before).
	FilterCreated
)

// Filter is one list filter of a resource's own, beyond the generic ones
// (status, name, search, creation time, sort).
type Filter struct {
	Arg  string // --playspec, "playspec"
	Help string
	// Refers names the resource whose id or name the filter takes.
	Refers string
	// Query is the query parameter it sets ("playspec_id").
	Query string
	// Values, when set, are the only values it takes ("true", "false"):
	// another is refused before anything is sent (CheckFilter).
	Values []string
}

// CheckFilter refuses a value of f that is not among its Values, as an
// *InputError naming the filter.
func CheckFilter(f Filter, value string) error {
	if value == "" || len(f.Values) == 0 || slices.Contains(f.Values, value) {
		return nil
	}
	return &InputError{Arg: f.Arg, Problem: fmt.Sprintf("must be one of %s, not %q", strings.Join(f.Values, ", "), value)}
}

// ColumnKind says how a column's value is shown to people.
type ColumnKind int

const (
	// Text is the value as a string, sanitized.
	Text ColumnKind = iota
	// Status is colored by its meaning.
	Status
	// Relative is a time shown relative to now ("in 3h").
	Relative
	// Time is a time shown in full.
	Time
	// YesNo is a boolean that may be absent.
	YesNo
	// NameOrID is the value of Key, or of Fallback (an id) when Key is empty.
	NameOrID
	// List is a list of strings: a table shows its first items and how
	// many more ("secrets:read +3"), the card and --json all of them.
	List
)

// Column is one column of a resource's table or one line of its card: a
// header and the JSON key (as --json prints the item) it shows.
type Column struct {
	Header   string
	Key      string
	Kind     ColumnKind
	Fallback string // NameOrID: the id's key
}

// Action is an operation on one item beyond the generic verbs
// (`fibe pg rollout`, the MCP tool fibe_playgrounds_action, the console's
// buttons).
type Action struct {
	// Name is what people call it: the command, the button.
	Name string
	// Wire is the action's name on the wire (action_type "hard_restart").
	Wire string
	// Help is one line, the same on every door.
	Help string
	// Progress is the spinner's verb ("Rolling out").
	Progress string
	// Force: the action takes a force flag.
	Force bool
	// Destroys: the action takes something down (it asks before it runs,
	// and agents need to confirm).
	Destroys bool
	// Async: the action may answer 202 and is waited on.
	Async bool
	// Path is the action's path under the item's ("/operations"); it is
	// always a POST. TypeField, when set, is the body field that names the
	// action ({"action_type": "rollout"}).
	Path, TypeField string
	// Result is the Go type of the action's result as the client decodes
	// it (what --json prints; the MCP tool's output schema comes from it).
	Result reflect.Type
}

// Resource is the description of one resource.
type Resource struct {
	// Name is the plural the API and the CLI use ("playgrounds").
	Name string
	// Singular names one item ("playground").
	Singular string
	// Aliases are the CLI group's other names ("pg").
	Aliases []string
	// Short describes the resource in one line.
	Short string
	// Path is the collection's path under the API ("/api/playgrounds").
	Path string
	// Wrapper is the key a request body is wrapped in ({"playground": ...}).
	Wrapper string
	// Verbs are the generic verbs it serves.
	Verbs []Verb
	// Fields are the attributes create and update send.
	Fields []Field
	// Statuses are the values of the list's status filter; SortKeys the
	// list's sort keys (none: the list has neither).
	Statuses, SortKeys []string
	// Filters are the list's own filters.
	Filters []Filter
	// ListLacks are the generic filters its list does not take
	// (FilterName: its items have no name); zero: it takes them all.
	ListLacks GenericFilter
	// Columns are the list's table; Card the detail card of one item.
	Columns, Card []Column
	// Actions are its operations beyond the generic verbs.
	Actions []Action
	// CreateWaitsFor is the status a create waits for, on every door,
	// unless told not to (--no-wait, "wait": false). Empty: a create
	// answers when the API does.
	CreateWaitsFor string
	// Item is the Go type of one item as the client decodes it; its JSON
	// is what --json prints (the MCP tools' output schema comes from it).
	Item reflect.Type

	ops ops
}

// A is the singular with its indefinite article: "a playground", "an agent".
func (r *Resource) A() string {
	if r.Singular != "" && strings.ContainsRune("aeiou", rune(r.Singular[0])) {
		return "an " + r.Singular
	}
	return "a " + r.Singular
}

// ListTakes reports whether its list takes the generic filter g.
func (r *Resource) ListTakes(g GenericFilter) bool { return r.ListLacks&g == 0 }

// Serves reports whether the resource serves verb v.
func (r *Resource) Serves(v Verb) bool { return slices.Contains(r.Verbs, v) }

// FieldsOf returns the fields verb v takes, in order.
func (r *Resource) FieldsOf(v Verb) []Field {
	var out []Field
	for _, f := range r.Fields {
		if f.Takes(v) {
			out = append(out, f)
		}
	}
	return out
}

// Field returns the field whose Arg or Wire name is name.
func (r *Resource) Field(name string) (Field, bool) {
	for _, f := range r.Fields {
		if f.Arg == name || f.Wire == name {
			return f, true
		}
	}
	return Field{}, false
}

// Action returns the action called name (its Name or its Wire name).
func (r *Resource) Action(name string) (Action, bool) {
	for _, a := range r.Actions {
		if a.Name == name || a.Wire == name {
			return a, true
		}
	}
	return Action{}, false
}

// ApplyFilter sets the list filter f to value (an id or a name).
func ApplyFilter(lo *client.ListOptions, f Filter, value string) {
	if value == "" {
		return
	}
	if lo.Filters == nil {
		lo.Filters = map[string]string{}
	}
	lo.Filters[f.Query] = value
}

// SortValues are the values a list's sort takes: each key's _asc and
// _desc (docs/api.md, Lists).
func SortValues(keys []string) []string {
	out := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		out = append(out, k+"_asc", k+"_desc")
	}
	return out
}
