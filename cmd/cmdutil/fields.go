package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// BodyFlags are the values of a command's field flags and its -f payload.
type BodyFlags struct {
	File string
	// Values holds, by flag name, the flags given: a string, an int or a
	// []string (an Env field's KEY=VALUE pairs, a Strings field's items).
	Values resource.Values
}

// addFieldFlags adds a flag for each field (named by its Arg) and -f. The
// values are recorded into b.Values by the returned function, after
// parsing, for the flags given.
func addFieldFlags(f *Factory, cmd *cobra.Command, fields []resource.Field, b *BodyFlags) (collect func()) {
	strs := make([]string, len(fields))
	ints := make([]int, len(fields))
	bools := make([]bool, len(fields))
	arrays := make([][]string, len(fields))
	fl := cmd.Flags()
	for i, field := range fields {
		switch field.Kind {
		case resource.Int:
			fl.IntVar(&ints[i], field.Arg, 0, field.Help)
		case resource.Bool:
			fl.BoolVar(&bools[i], field.Arg, false, field.Help)
		case resource.Env, resource.Strings:
			fl.StringArrayVar(&arrays[i], field.Arg, nil, field.Help)
		default:
			fl.StringVar(&strs[i], field.Arg, "", field.Help)
		}
		if complete := completeRefers(f, field.Refers); complete != nil {
			f.CompleteFlag(cmd, field.Arg, complete)
		} else if len(field.Enum) > 0 {
			f.CompleteFlag(cmd, field.Arg, cobra.FixedCompletions(field.Enum, cobra.ShellCompDirectiveNoFileComp))
		}
	}
	fl.StringVarP(&b.File, "file", "f", "", "JSON payload file, or - for stdin")
	return func() {
		b.Values = resource.Values{}
		for i, field := range fields {
			if !fl.Changed(field.Arg) {
				continue
			}
			switch field.Kind {
			case resource.Int:
				b.Values[field.Arg] = ints[i]
			case resource.Bool:
				b.Values[field.Arg] = bools[i]
			case resource.Env, resource.Strings:
				b.Values[field.Arg] = arrays[i]
			default:
				b.Values[field.Arg] = strs[i]
			}
		}
	}
}

// buildBody is the body verb v of r sends: the payload file, then the
// flags (flags win), built and checked by the description. Bad input is a
// usage error.
func buildBody(ios *iostreams.IOStreams, r *resource.Resource, v resource.Verb, b BodyFlags) (map[string]any, error) {
	schema := PayloadFor(r, v)
	base := map[string]any{}
	if b.File != "" {
		var err error
		if base, err = ReadPayloadFrom(ios, b.File, schema); err != nil {
			return nil, err
		}
	}
	values, err := stdinFiles(ios, r.FieldsOf(v), b)
	if err != nil {
		return nil, err
	}
	body, err := r.Body(v, base, values)
	if err != nil {
		return nil, inputError(err, schema)
	}
	return body, nil
}

// stdinFiles reads the file fields given as - from stdin, once: the
// values with their content in place of the path.
func stdinFiles(ios *iostreams.IOStreams, fields []resource.Field, b BodyFlags) (resource.Values, error) {
	values := resource.Values{}
	stdin := ""
	if b.File == "-" {
		stdin = "-f"
	}
	for k, val := range b.Values {
		values[k] = val
	}
	for _, field := range fields {
		if field.Kind != resource.File || values[field.Arg] != "-" {
			continue
		}
		if stdin != "" {
			return nil, output.FlagErrorf("--%s - and %s - both read stdin: give one of them a file", field.Arg, stdin)
		}
		stdin = "--" + field.Arg
		data, err := ReadFileFlag(ios, stdin, "-")
		if err != nil {
			return nil, err
		}
		values[field.Arg] = data
	}
	return values, nil
}

// nothingToChange is the usage error of an update without a change.
func nothingToChange(fields []resource.Field) error {
	flags := make([]string, len(fields))
	for i, field := range fields {
		flags[i] = "--" + field.Arg
	}
	return output.FlagErrorf("nothing to change: give %s or -f", strings.Join(flags, ", "))
}
