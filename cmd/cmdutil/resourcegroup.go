package cmdutil

import (
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdResource builds `fibe <resources>` for a resource that needs
// nothing of its own on the command line: every verb it serves, with the
// flags, table and card of its description. A resource with commands of
// its own (playgrounds, marquees) has its package and uses the verb
// builders directly.
func NewCmdResource(f *Factory, r *resource.Resource) *cobra.Command {
	title := r.Short
	if len(r.Aliases) > 0 {
		title += " (alias: " + r.Aliases[0] + ")"
	}
	cmd := Group(&cobra.Command{
		Use:     r.Name + " <command>",
		Aliases: r.Aliases,
		Short:   title,
	})
	card := func(ios *iostreams.IOStreams, item *any) error { return PrintCard(ios, r, *item) }
	complete := completeRefers(f, r.Name)
	fields := func(v resource.Verb) string {
		var flags []string
		for _, fl := range r.FieldsOf(v) {
			flags = append(flags, "--"+fl.Arg)
		}
		return strings.Join(flags, " ")
	}
	short, long := r.Name, r.Name
	if len(r.Aliases) > 0 {
		short = r.Aliases[0]
	}
	if r.Serves(resource.VerbList) {
		cmd.AddCommand(NewCmdList(f, ListSpec[any]{Resource: r,
			Example: "  fibe " + long + " list\n  fibe " + short + " list --jq '.[].name'"}, nil))
	}
	if r.Serves(resource.VerbGet) {
		cmd.AddCommand(NewCmdGet(f, GetSpec[any]{Resource: r, Complete: complete, Card: card,
			Example: "  fibe " + long + " get NAME\n  fibe " + short + " get 1 --json"}, nil))
	}
	if r.Serves(resource.VerbCreate) {
		cmd.AddCommand(NewCmdCreate(f, CreateSpec[any]{Resource: r, Use: "create " + fields(resource.VerbCreate),
			Short: "Create " + r.A(), Card: card, Example: "  fibe " + long + " create" + exampleFlags(r, resource.VerbCreate)}, nil))
	}
	if r.Serves(resource.VerbUpdate) {
		cmd.AddCommand(NewCmdUpdate(f, UpdateSpec[any]{Resource: r, Use: "update <id|name> " + fields(resource.VerbUpdate),
			Complete: complete, Card: card, Example: "  fibe " + long + " update NAME" + exampleFlags(r, resource.VerbUpdate)}, nil))
	}
	if r.Serves(resource.VerbDelete) {
		cmd.AddCommand(NewCmdDelete(f, DeleteSpec{Resource: r, Aliases: []string{"rm"}, Complete: complete,
			Example: "  fibe " + long + " delete NAME\n  fibe " + short + " delete 1 --yes"}))
	}
	return cmd
}

// exampleFlags are the flags of an example of verb v: the required
// fields on a create, the first field on an update, each with a value
// (the first allowed one, or the flag's name in capitals).
func exampleFlags(r *resource.Resource, v resource.Verb) string {
	var out []string
	for _, fl := range r.FieldsOf(v) {
		if v == resource.VerbCreate && !fl.Required || v == resource.VerbUpdate && len(out) > 0 {
			continue
		}
		value := strings.ToUpper(strings.ReplaceAll(fl.Arg, "-", "_"))
		switch {
		case fl.Kind == resource.Bool:
			out = append(out, "--"+fl.Arg)
			continue
		case len(fl.Enum) > 0:
			value = fl.Enum[0]
		case fl.Kind == resource.Env:
			value = "KEY=VALUE"
		}
		out = append(out, "--"+fl.Arg+" "+value)
	}
	if len(out) == 0 {
		return ""
	}
	return " " + strings.Join(out, " ")
}

// itemAs is what a verb of the description returned (a pointer to the
// client's type) as a *T: the pointer itself, or, for T = any, the item.
func itemAs[T any](v any) *T {
	if p, ok := v.(*T); ok || v == nil {
		return p
	}
	if x, ok := v.(T); ok {
		return &x
	}
	return nil
}

// sliceAs is a list of the description (a slice of the client's type) as
// a []T: itself, or, for T = any, its items.
func sliceAs[T any](v any) []T {
	if s, ok := v.([]T); ok {
		return s
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return nil
	}
	out := make([]T, 0, rv.Len())
	for i := range rv.Len() {
		if x, ok := rv.Index(i).Interface().(T); ok {
			out = append(out, x)
		}
	}
	return out
}
