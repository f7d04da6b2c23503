package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// The tools of the generic verbs and of the actions are generated from the
// resources' descriptions (internal/resource): for each resource,
// fibe_<name>_list, _get, _create, _update and _delete as it serves them;
// an action that takes something down gets a gated tool of its own
// (fibe_playgrounds_stop); the other actions share one tool,
// fibe_<name>_action with an "action" argument, or, when there is only
// one, get their own (fibe_marquees_test_connection). The body a call
// sends, its validation and what create waits for are the resource's:
// the same as on the command line.

// verbTool is what one generated tool does: a verb of a resource, or its
// actions (verb empty).
type verbTool struct {
	r       *resource.Resource
	verb    resource.Verb
	actions []resource.Action
	name    string // the tool's name
}

// argName is the MCP argument of a door's Arg: "ssh-key-file" is
// "ssh_key_file".
func argName(arg string) string { return strings.ReplaceAll(arg, "-", "_") }

// resourceTools are the generated tools of r, in the order verbs, then
// the shared action tool (or the one action's), then each action that
// takes something down.
func resourceTools(r *resource.Resource) []*Tool {
	var out []*Tool
	for _, v := range []resource.Verb{resource.VerbList, resource.VerbGet, resource.VerbCreate, resource.VerbUpdate, resource.VerbDelete} {
		if r.Serves(v) {
			out = append(out, verbToolOf(&verbTool{r: r, verb: v, name: "fibe_" + argName(r.Name) + "_" + string(v)}))
		}
	}
	var plain, destroys []resource.Action
	for _, a := range r.Actions {
		if a.Destroys {
			destroys = append(destroys, a)
		} else {
			plain = append(plain, a)
		}
	}
	switch len(plain) {
	case 0:
	case 1:
		out = append(out, verbToolOf(&verbTool{r: r, actions: plain, name: "fibe_" + argName(r.Name) + "_" + argName(plain[0].Name)}))
	default:
		out = append(out, verbToolOf(&verbTool{r: r, actions: plain, name: "fibe_" + r.Name + "_action"}))
	}
	for _, a := range destroys {
		out = append(out, verbToolOf(&verbTool{r: r, actions: []resource.Action{a}, name: "fibe_" + argName(r.Name) + "_" + argName(a.Name)}))
	}
	return out
}

// The common arguments of each kind of generated tool; their schemas are
// inferred, as the hand-written tools' are.
type (
	mutateArgs struct {
		mutationArgs
		waitArgs
	}
	gatedArgs struct {
		confirmArgs
		mutationArgs
		waitArgs
	}
	// verbArgs are every common argument a generated tool may take.
	verbArgs struct {
		mutationArgs
		waitArgs
		confirmArgs
		listArgs
	}
)

func inferred[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	return s
}

// verbToolOf builds the tool: its spec, its input schema from the
// description, its run.
func verbToolOf(t *verbTool) *Tool {
	r := t.r
	cli := "fibe " + r.Aliases[0] + " "
	one, ref := r.A(), r.Singular
	s := spec{name: t.name}
	var in *jsonschema.Schema
	var first []string // properties shown first: the reference, then the fields
	switch t.verb {
	case resource.VerbList:
		in = inferred[listArgs]()
		s.title, s.readOnly = "List "+r.Name, true
		s.desc = "List " + r.Name + " (one page, or every page with all). Same as `" + cli + "list --json`."
		s.output = listSchemaFor(r.Item)
		listRanges(in)
		if len(r.Statuses) > 0 {
			in.Properties["status"] = &jsonschema.Schema{Type: "string", Description: "Only " + r.Name + " with this status", Enum: anys(r.Statuses)}
			first = append(first, "status")
			if r.ListTakes(resource.FilterName) {
				in.Properties["name"] = &jsonschema.Schema{Type: "string", Description: "Only " + r.Name + " whose name matches"}
				first = append(first, "name")
			}
		}
		if len(r.SortKeys) > 0 {
			in.Properties["sort"] = &jsonschema.Schema{Type: "string", Enum: anys(resource.SortValues(r.SortKeys)),
				Description: "Order: a column and a direction (e.g. " + r.SortKeys[0] + "_desc); default created_at_desc"}
			first = append(first, "sort")
		}
		for _, f := range r.Filters {
			in.Properties[argName(f.Arg)] = &jsonschema.Schema{Type: "string", Description: f.Help}
			if len(f.Values) > 0 {
				in.Properties[argName(f.Arg)].Enum = anys(f.Values)
			}
			first = append(first, argName(f.Arg))
		}
	case resource.VerbGet:
		in = inferred[struct{}]()
		s.title, s.readOnly = "Show "+one, true
		s.desc = "One " + r.Singular + " by id or name. Same as `" + cli + "get --json`."
		s.output = schemaFor(r.Item)
	case resource.VerbCreate:
		in = inferred[mutateArgs]()
		s.title = "Create " + one
		s.desc = "Create " + one + kindOf(r)
		if r.CreateWaitsFor != "" {
			s.desc += ", then (unless wait is false) wait until it is " + r.CreateWaitsFor
		}
		s.desc += ". The result is the " + r.Singular + ", as `" + cli + "create --json` prints it."
		s.output = orHandle(schemaFor(r.Item))
	case resource.VerbUpdate:
		in = inferred[mutateArgs]()
		s.title, s.idempotent = "Change "+one, true
		s.desc = "Change " + one + "'s " + orList(fieldArgs(r, resource.VerbUpdate)) + ". Same as `" + cli + "update --json`."
		s.output = orHandle(schemaFor(r.Item))
	case resource.VerbDelete:
		in = inferred[gatedArgs]()
		s.title, s.destructive, s.idempotent = "Delete "+one, true, true
		s.desc = "Delete " + one + " and (unless wait is false) wait until it is gone. Needs \"confirm\": true. Same as `" +
			cli + "delete --yes --json`."
		s.output = orHandle(deletedSchema(r.Singular))
	default:
		in, first = t.actionSpec(&s, cli)
	}
	if t.verb != resource.VerbList && t.verb != resource.VerbCreate {
		in.Properties[ref] = &jsonschema.Schema{Type: "string", Description: upperFirst(r.Singular) + " id or name"}
		in.Required = append(in.Required, ref)
		first = append([]string{ref}, first...)
	}
	for _, f := range r.FieldsOf(t.verb) {
		name := argName(f.Arg)
		in.Properties[name] = fieldSchema(f)
		if f.Required && t.verb == resource.VerbCreate {
			in.Required = append(in.Required, name)
		}
		first = append(first, name)
	}
	in.PropertyOrder = append(first, in.PropertyOrder...)
	return defineWith(s, in, func() *verbIn { return &verbIn{t: t} }, t.run)
}

// actionSpec is the spec and input schema of an action tool.
func (t *verbTool) actionSpec(s *spec, cli string) (*jsonschema.Schema, []string) {
	r := t.r
	var in *jsonschema.Schema
	var first []string
	a := t.actions[0]
	s.output = orHandle(schemaFor(a.Result))
	switch {
	case len(t.actions) > 1:
		in = inferred[mutateArgs]()
		var verbs, enum, named, help []string
		for _, a := range t.actions {
			verbs = append(verbs, lowerFirst(helpVerb(a)))
			enum = append(enum, a.Wire)
			h := "`" + a.Wire + "`"
			n := a.Wire
			if a.Name != a.Wire {
				enum = append(enum, a.Name)
				h += " (or `" + a.Name + "`, its command's name)"
				n += " (also " + a.Name + ", as the command line names it)"
			}
			named = append(named, n)
			help = append(help, h+": "+lowerFirst(a.Help))
		}
		in.Properties["action"] = &jsonschema.Schema{Type: "string", Enum: anys(enum), Description: strings.Join(help, "; ")}
		in.Required = append(in.Required, "action")
		first = append(first, "action")
		s.title = upperFirst(orList(verbs)) + " " + r.A()
		s.desc = "Run " + orList(named) + " on " + r.A() + " and (unless wait is false) wait for it. " +
			"The result is the final status, as `" + cli + "ACTION --json` prints it."
	case a.Destroys:
		in = inferred[gatedArgs]()
		s.title, s.destructive = title(a.Help), true
		s.desc = a.Help + " and (unless wait is false) wait for it. Needs \"confirm\": true. Same as `" + cli + a.Name + " --json`."
	default:
		in = inferred[mutateArgs]()
		s.title, s.readOnly = title(a.Help), readOnlyAction(r, a)
		s.desc = a.Help + ". Same as `" + cli + a.Name + " --json`."
	}
	var forced []string
	for _, a := range t.actions {
		if a.Force {
			forced = append(forced, a.Wire)
		}
	}
	if len(forced) > 0 {
		in.Properties["force"] = &jsonschema.Schema{Type: "boolean", Description: "Force the operation (" + orList(forced) + " only)"}
		first = append(first, "force")
	}
	return in, first
}

// fieldSchema is the schema of one field's argument.
func fieldSchema(f resource.Field) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: f.Help}
	switch f.Kind {
	case resource.Int:
		s.Type = "integer"
		if f.Min != 0 || f.Max != 0 {
			s.Minimum, s.Maximum = ptr(float64(f.Min)), ptr(float64(f.Max))
		}
	case resource.Bool:
		s.Type = "boolean"
	case resource.String:
		if f.Max > 0 {
			s.MaxLength = ptr(f.Max)
		}
	case resource.Strings:
		s.Type = "array"
		s.Items = &jsonschema.Schema{Type: "string"}
		if len(f.Enum) > 0 {
			s.Items.Enum = anys(f.Enum)
		}
		if f.Pattern != "" {
			s.Items.Pattern = "^(?:" + f.Pattern + ")$"
		}
		return s
	case resource.Env:
		s.Type = "object"
		s.AdditionalProperties = &jsonschema.Schema{Type: "string"}
		help, _, _ := strings.Cut(f.Help, " KEY=VALUE")
		s.Description = help + "s: an object, name to value"
	case resource.File:
		if rest, ok := strings.CutPrefix(f.Help, "File "); ok {
			s.Description = "Path of a file, on the machine running fibe, " + rest
		} else {
			s.Description = f.Help + " (the path of a file on the machine running fibe)"
		}
	}
	if len(f.Enum) > 0 {
		s.Enum = anys(f.Enum)
	}
	if f.MaxLen > 0 {
		s.MaxLength = ptr(f.MaxLen)
	}
	if f.Pattern != "" {
		s.Pattern = "^(?:" + f.Pattern + ")$"
	}
	return s
}

// verbIn is a generated tool's arguments: the common ones, decoded into
// their structs, and the resource's, kept raw until validate reads them
// through the description.
type verbIn struct {
	t    *verbTool
	args map[string]json.RawMessage
	verbArgs

	// What validate found.
	ref    string
	body   map[string]any
	action resource.Action
	force  bool
	lo     client.ListOptions
}

func (in *verbIn) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &in.verbArgs); err != nil {
		return err
	}
	return json.Unmarshal(data, &in.args)
}

// str is the string argument name ("" when not given).
func (in *verbIn) str(name string) (string, error) {
	var s string
	if raw, ok := in.args[name]; ok {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", invalidArgument(name, "%s must be a string", name)
		}
	}
	return s, nil
}

// validate reads the resource's arguments through its description: the
// reference, the body (resource.Body: required fields, bounds, files),
// the action. Nothing is sent before it passes.
func (in *verbIn) validate() error {
	t, r := in.t, in.t.r
	var err error
	if t.verb == resource.VerbList {
		return in.listOptions()
	}
	if t.verb != resource.VerbCreate {
		if in.ref, err = in.str(r.Singular); err != nil {
			return err
		}
		if err := nonBlank(r.Singular, in.ref); err != nil {
			return err
		}
	}
	switch t.verb {
	case resource.VerbCreate, resource.VerbUpdate:
		values, err := in.values()
		if err != nil {
			return err
		}
		if in.body, err = r.Body(t.verb, nil, values); err != nil {
			return inputError(err)
		}
		if t.verb == resource.VerbUpdate && len(in.body) == 0 {
			names := fieldArgs(r, t.verb)
			return invalidArgument(names[0], "nothing to change: give %s", orList(names))
		}
	case "":
		return in.actionArgs()
	}
	return nil
}

func (in *verbIn) listOptions() error {
	if err := in.listArgs.validate(); err != nil {
		return err
	}
	in.lo = in.listArgs.options()
	var err error
	if in.lo.Status, err = in.str("status"); err != nil {
		return err
	}
	if in.t.r.ListTakes(resource.FilterName) {
		if in.lo.Name, err = in.str("name"); err != nil {
			return err
		}
	}
	if in.lo.Sort, err = in.str("sort"); err != nil {
		return err
	}
	for _, f := range in.t.r.Filters {
		v, err := in.str(argName(f.Arg))
		if err != nil {
			return err
		}
		if err := resource.CheckFilter(f, v); err != nil {
			return invalidArgument(argName(f.Arg), "%s", err.(*resource.InputError).Problem)
		}
		resource.ApplyFilter(&in.lo, f, v)
	}
	return nil
}

func (in *verbIn) actionArgs() error {
	t := in.t
	in.action = t.actions[0]
	if len(t.actions) > 1 {
		name, err := in.str("action")
		if err != nil {
			return err
		}
		a, ok := t.r.Action(name)
		if !ok || !slices.ContainsFunc(t.actions, func(x resource.Action) bool { return x.Wire == a.Wire }) {
			return invalidArgument("action", "no action %q", name)
		}
		in.action = a
	}
	if raw, ok := in.args["force"]; ok {
		if err := json.Unmarshal(raw, &in.force); err != nil {
			return invalidArgument("force", "force must be true or false")
		}
	}
	if in.force && !in.action.Force {
		return invalidArgument("force", "force does not apply to %s", in.action.Wire)
	}
	return nil
}

// values are the fields the verb takes, as the call gave them.
func (in *verbIn) values() (resource.Values, error) {
	vals := resource.Values{}
	for _, f := range in.t.r.FieldsOf(in.t.verb) {
		name := argName(f.Arg)
		raw, ok := in.args[name]
		if !ok {
			continue
		}
		var v any
		var err error
		switch f.Kind {
		case resource.Int:
			var n int
			err, v = json.Unmarshal(raw, &n), n
		case resource.Bool:
			var b bool
			err, v = json.Unmarshal(raw, &b), b
		case resource.Env:
			var m map[string]string
			err, v = json.Unmarshal(raw, &m), m
		case resource.Strings:
			var list []string
			err, v = json.Unmarshal(raw, &list), list
		default:
			// Only spaces is no value: a required field so given is
			// missing, as an empty one is.
			var s string
			err = json.Unmarshal(raw, &s)
			if strings.TrimSpace(s) == "" {
				s = ""
			}
			v = s
		}
		if err != nil {
			return nil, invalidArgument(name, "%s: %v", name, err)
		}
		vals[f.Arg] = v
	}
	return vals, nil
}

// inputError is the description's refusal as INVALID_ARGUMENT naming the
// MCP argument.
func inputError(err error) error {
	var ie *resource.InputError
	if !errors.As(err, &ie) {
		return err
	}
	name := argName(ie.Arg)
	return invalidArgument(name, "%s %s", name, ie.Problem)
}

// question is what confirming a gated tool means.
func (in *verbIn) question() string {
	r := in.t.r
	if in.t.verb == resource.VerbDelete {
		return "Delete " + r.Singular + " " + in.ref + "?"
	}
	help := in.action.Help
	if i := strings.Index(help, " a "+r.Singular); i >= 0 {
		help = help[:i] + " " + r.Singular + " " + in.ref + help[i+len(" a "+r.Singular):]
	}
	return help + "?"
}

// run calls the resource's verb runner.
func (t *verbTool) run(ctx context.Context, c *call, in *verbIn) (any, error) {
	r := t.r
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	mo := in.mutationArgs.options()
	var item any
	var resp *client.Response
	switch t.verb {
	case resource.VerbList:
		return listedItems(in.All, func() (any, error) { return r.ListAll(ctx, cl, in.lo) },
			func() (any, *client.ListMeta, error) { return r.List(ctx, cl, in.lo) })
	case resource.VerbGet:
		item, _, err = r.Get(ctx, cl, in.ref)
		return item, err
	case resource.VerbCreate:
		name, _ := in.body["name"].(string)
		c.setLabel("creating %s %s", r.Singular, name)
		item, resp, err = r.Create(ctx, cl, in.body, mo, in.waitArgs.options(c))
	case resource.VerbUpdate:
		c.setLabel("updating %s %s", r.Singular, in.ref)
		item, resp, err = r.Update(ctx, cl, in.ref, in.body, mo, in.waitArgs.options(c))
	case resource.VerbDelete:
		c.setLabel("deleting %s %s", r.Singular, in.ref)
		wo := in.waitArgs.options(c)
		resp, err = r.Delete(ctx, cl, in.ref, mo, wo)
		c.resp = resp
		if err != nil {
			return nil, err
		}
		if wo.NoWait && resp != nil && resp.Accepted != nil {
			return resp.Accepted, nil
		}
		return deleted(r.Singular, in.ref), nil
	default:
		c.setLabel("%s %s", lowerFirst(in.action.Progress), in.ref)
		item, resp, err = r.Run(ctx, cl, in.ref, in.action, in.force, mo, in.waitArgs.options(c))
	}
	c.resp = resp
	if err != nil {
		return nil, err
	}
	if item == nil { // a 202 not waited on: the handle
		return resp.Accepted, nil
	}
	return item, nil
}

// deleted is what `fibe <noun> delete --json` prints.
func deleted(noun, ref string) map[string]any { return map[string]any{"deleted": true, noun: ref} }

func deletedSchema(noun string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"deleted", noun}, Properties: map[string]*jsonschema.Schema{
		"deleted": {Type: "boolean"}, noun: {Type: "string"}}}
}

// fieldArgs are the MCP names of the fields verb v takes.
func fieldArgs(r *resource.Resource, v resource.Verb) []string {
	var out []string
	for _, f := range r.FieldsOf(v) {
		out = append(out, argName(f.Arg))
	}
	return out
}

// orList is "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// kindOf says what an item is, from the resource's one line: ", one of
// the servers playgrounds run on" of "Manage marquees, the servers
// playgrounds run on".
func kindOf(r *resource.Resource) string {
	if _, what, ok := strings.Cut(r.Short, ", the "); ok {
		return ", one of the " + what
	}
	return ""
}

// helpVerb is what an action does, from its help line: "Roll out" of
// "Roll out a playground (build and deploy)".
func helpVerb(a resource.Action) string {
	if i := strings.Index(a.Help, " a "); i > 0 {
		return a.Help[:i]
	}
	return a.Name
}

// readOnlyAction reports whether action a only reads or tests (a
// connection test): the client's one list of such POSTs decides.
func readOnlyAction(r *resource.Resource, a resource.Action) bool {
	return client.ReadOnlyRequest(http.MethodPost, r.Path+"/item"+a.Path)
}

// title is a help line without its parenthesis: "Stop a playground".
func title(help string) string {
	t, _, _ := strings.Cut(help, " (")
	return t
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
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
