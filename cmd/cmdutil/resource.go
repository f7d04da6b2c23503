package cmdutil

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// What the command line makes of a resource's description
// (internal/resource): flags, completion, the -f payload, tables and cards.

// PayloadFor is what a -f payload of verb v holds: the resource's wrapper,
// the API's names of the verb's fields, and the flags' names accepted for
// them ("playspec" for "playspec_id"). A file field's flag names a path,
// not the content, so it is no alias.
func PayloadFor(r *resource.Resource, v resource.Verb) PayloadSchema {
	s := PayloadSchema{Wrapper: r.Wrapper, Aliases: map[string]string{}}
	for _, f := range r.FieldsOf(v) {
		s.Fields = append(s.Fields, f.Wire)
		if f.Arg != f.Wire && f.Kind != resource.File {
			s.Aliases[f.Arg] = f.Wire
		}
	}
	return s
}

// completeRefers completes the value of a field or filter that refers to
// another resource with that resource's names.
func completeRefers(f *Factory, refers string) CompletionFunc {
	switch refers {
	case "playspecs":
		return CompletePlayspecFlag(f)
	case "marquees":
		return CompleteMarqueeFlag(f)
	case "playgrounds":
		return CompletePlaygroundNames(f)
	}
	if r, ok := resource.Lookup(refers); ok && r.Serves(resource.VerbList) {
		return CompleteNames(f, r)
	}
	return nil
}

// inputError words a description's refusal for the command line.
func inputError(err error, payload PayloadSchema) error {
	ie, ok := err.(*resource.InputError)
	if !ok {
		return err
	}
	if ie.Missing {
		return output.FlagErrorf("--%s is required (or %q in the payload)", ie.Arg, payloadName(ie.Arg, payload))
	}
	return output.FlagErrorf("--%s %s", ie.Arg, ie.Problem)
}

// payloadName is the API's name of a flag's field.
func payloadName(arg string, payload PayloadSchema) string {
	if wire, ok := payload.Aliases[arg]; ok {
		return wire
	}
	return arg
}

// PrintTable prints items (a slice of the client's type) as the
// resource's table.
func PrintTable(ios *iostreams.IOStreams, r *resource.Resource, items any) error {
	rows, err := asObjects(items)
	if err != nil {
		return err
	}
	cs := ios.ColorScheme()
	headers := make([]string, len(r.Columns))
	for i, c := range r.Columns {
		headers[i] = c.Header
	}
	t := iostreams.NewTable(ios.Out, cs, headers...)
	for _, row := range rows {
		cells := make([]string, len(r.Columns))
		for i, c := range r.Columns {
			cells[i] = cell(cs, c, row, true)
		}
		t.AddRow(cells...)
	}
	return t.Render()
}

// PrintCard prints one item as the resource's detail card.
func PrintCard(ios *iostreams.IOStreams, r *resource.Resource, item any) error {
	rows, err := asObjects([]any{item})
	if err != nil {
		return err
	}
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	for _, c := range r.Card {
		d.Add(c.Header, cell(cs, c, rows[0], false))
	}
	return d.Render()
}

// asObjects turns items into their JSON objects, as --json prints them.
func asObjects(items any) ([]map[string]any, error) {
	data, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	var rows []map[string]any
	err = json.Unmarshal(data, &rows)
	return rows, err
}

// cell is one value of a column for people: sanitized, colored by meaning.
func cell(cs *iostreams.ColorScheme, c resource.Column, row map[string]any, short bool) string {
	v := row[c.Key]
	switch c.Kind {
	case resource.Status:
		return cs.Status(output.Sanitize(text(v)))
	case resource.Relative, resource.Time:
		s, _ := v.(string)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return ""
		}
		if c.Kind == resource.Relative && short {
			return ShortRelative(&t)
		}
		return FormatTime(&t)
	case resource.YesNo:
		switch v {
		case true:
			return "yes"
		case false:
			return "no"
		}
		return ""
	case resource.NameOrID:
		if s := text(v); s != "" {
			return output.Sanitize(s)
		}
		return output.Sanitize(text(row[c.Fallback]))
	case resource.List:
		if items, ok := v.([]any); ok && short {
			return output.Sanitize(shortList(items, listCellWidth))
		}
	}
	return output.Sanitize(text(v))
}

// listCellWidth bounds a List cell of a table, so that a key holding every
// scope keeps its row within 80 columns; the card and --json show all.
const listCellWidth = 20

// shortList is as many of items as fit in width characters, then how many
// more there are: "secrets:read, props:read +3". The first item is always
// shown whole.
func shortList(items []any, width int) string {
	out := ""
	for i, it := range items {
		next := text(it)
		if i > 0 {
			next = out + ", " + next
		}
		more := ""
		if rest := len(items) - i - 1; rest > 0 {
			more = " +" + strconv.Itoa(rest)
		}
		if i > 0 && utf8.RuneCountInString(next+more) > width {
			return out + " +" + strconv.Itoa(len(items)-i)
		}
		out = next
	}
	return out
}

// text is a JSON value as people read it; zero numbers and null are empty.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		if x == 0 {
			return ""
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = text(e)
		}
		return strings.Join(parts, ", ")
	}
	data, _ := json.Marshal(v)
	return string(data)
}
