package cmdutil

import (
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// FieldKind says what a field flag takes and how its value goes into the
// request body.
type FieldKind int

const (
	// FieldString is a string, sent as given (an empty one is not sent).
	FieldString FieldKind = iota
	// FieldInt is an integer, checked by Field.Check when given.
	FieldInt
	// FieldRef is an id or a name: a number is sent as a number.
	FieldRef
	// FieldEnv is a repeatable KEY=VALUE, merged into an object of the
	// payload's.
	FieldEnv
	// FieldFile names a file whose content is sent (a key that is never
	// printed back).
	FieldFile
)

// Field is one flag of a create or update command and the body field it
// fills (`--playspec web` → "playspec_id": "web").
type Field struct {
	Flag     string
	Key      string
	Help     string
	Kind     FieldKind
	Check    func(int) error // FieldInt: the value's range
	Complete CompletionFunc
	// Required, when set, makes create refuse a body without the field; it
	// is how the message names the field in a payload (`"name"`, `a "host"`).
	Required string
}

// BodyFlags are the values of a command's field flags and its -f payload.
type BodyFlags struct {
	File string
	// Values holds, by flag name, the flags given: a string, an int or a
	// []string (FieldEnv).
	Values map[string]any
}

// addFieldFlags adds the fields' flags and -f. The values are recorded into
// b.Values by the returned function, after parsing, for the flags given.
func addFieldFlags(f *Factory, cmd *cobra.Command, fields []Field, b *BodyFlags) (collect func()) {
	strs := make([]string, len(fields))
	ints := make([]int, len(fields))
	arrays := make([][]string, len(fields))
	fl := cmd.Flags()
	for i, field := range fields {
		switch field.Kind {
		case FieldInt:
			fl.IntVar(&ints[i], field.Flag, 0, field.Help)
		case FieldEnv:
			fl.StringArrayVar(&arrays[i], field.Flag, nil, field.Help)
		default:
			fl.StringVar(&strs[i], field.Flag, "", field.Help)
		}
		if field.Complete != nil {
			f.CompleteFlag(cmd, field.Flag, field.Complete)
		}
	}
	fl.StringVarP(&b.File, "file", "f", "", "JSON payload file, or - for stdin")
	return func() {
		b.Values = map[string]any{}
		for i, field := range fields {
			if !fl.Changed(field.Flag) {
				continue
			}
			switch field.Kind {
			case FieldInt:
				b.Values[field.Flag] = ints[i]
			case FieldEnv:
				b.Values[field.Flag] = arrays[i]
			default:
				b.Values[field.Flag] = strs[i]
			}
		}
	}
}

// buildBody merges the payload file and the flags (flags win). Bad input
// is a usage error.
func buildBody(ios *iostreams.IOStreams, fields []Field, schema PayloadSchema, b BodyFlags) (map[string]any, error) {
	body := map[string]any{}
	if b.File != "" {
		var err error
		if body, err = ReadPayloadFrom(ios, b.File, schema); err != nil {
			return nil, err
		}
	}
	for _, field := range fields {
		v, ok := b.Values[field.Flag]
		if !ok {
			continue
		}
		switch field.Kind {
		case FieldInt:
			n, _ := v.(int)
			if field.Check != nil {
				if err := field.Check(n); err != nil {
					return nil, err
				}
			}
			body[field.Key] = n
		case FieldEnv:
			pairs, _ := v.([]string)
			env, err := ParseEnv(pairs)
			if err != nil {
				return nil, err
			}
			MergeEnv(body, field.Key, env)
		case FieldFile:
			path, _ := v.(string)
			if path == "" {
				continue
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, output.FlagErrorf("cannot read --%s: %v", field.Flag, err)
			}
			body[field.Key] = string(data)
		case FieldRef:
			if s, _ := v.(string); s != "" {
				body[field.Key] = IDOrName(s)
			}
		default:
			if s, _ := v.(string); s != "" {
				body[field.Key] = s
			}
		}
	}
	return body, nil
}

// requireFields refuses a create body that lacks a required field.
func requireFields(fields []Field, body map[string]any) error {
	for _, field := range fields {
		if field.Required == "" {
			continue
		}
		if _, ok := body[field.Key]; !ok {
			return output.FlagErrorf("--%s is required (or %s in the payload)", field.Flag, field.Required)
		}
	}
	return nil
}

// nothingToChange is the usage error of an update without a change.
func nothingToChange(fields []Field) error {
	flags := make([]string, len(fields))
	for i, field := range fields {
		flags[i] = "--" + field.Flag
	}
	return output.FlagErrorf("nothing to change: give %s or -f", strings.Join(flags, ", "))
}
