package secrets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// SetOptions are the inputs of `fibe secrets set`.
type SetOptions struct {
	cmdutil.Seams
	Key         string
	Description string
	// Value is set by --value, the one way to give it on the command line;
	// ValueGiven tells an empty --value from none.
	Value      string
	ValueGiven bool
	ValueFile  string
	Mutation   cmdutil.MutationFlags
	cmd        *cobra.Command
}

// NewCmdSet builds `fibe secrets set KEY`; runF replaces setRun in tests.
func NewCmdSet(f *cmdutil.Factory, runF func(context.Context, *SetOptions) error) *cobra.Command {
	opts := &SetOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "set <KEY> [--value-file FILE | --value VALUE] [--description TEXT]",
		Short: "Create a secret, or change its value",
		Long: fmt.Sprintf(`Create the secret KEY, or change the value of the one that exists.

The value is read from standard input: piped, or typed at a prompt that
does not echo it. --value-file reads it from a file (- is standard
input). One line break at the end of the value is removed. --value gives
it on the command line, where shell history and the process list can see
it: avoid it for real secrets.

KEY is letters, digits, _ and -. A value is at most %d characters. The
value is never printed: `+"`fibe secrets get KEY --reveal`"+` shows it.`, resource.SecretValueMax),
		Example: `  fibe secrets set DB_URL < db-url.txt
  printf %s "$TOKEN" | fibe secrets set API_TOKEN --description "CI token"
  fibe secrets set TLS_KEY --value-file key.pem`,
		Args:              cmdutil.ExactArgs(1, "<KEY>"),
		ValidArgsFunction: cmdutil.CompleteSecretKeys(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			opts.ValueGiven = cmd.Flags().Changed("value")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return setRun(cmd.Context(), opts)
		},
	}
	opts.cmd = cmd
	cmd.Flags().StringVar(&opts.ValueFile, "value-file", "", "Read the value from `FILE` (- for standard input)")
	cmd.Flags().StringVar(&opts.Value, "value", "", "The value itself (visible in shell history: prefer standard input)")
	cmd.Flags().StringVar(&opts.Description, "description", "", "What the secret is for")
	cmd.MarkFlagsMutuallyExclusive("value", "value-file")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func setRun(ctx context.Context, opts *SetOptions) error {
	r := resource.Secrets()
	value, err := readValue(ctx, opts)
	if err != nil {
		return err
	}
	values := resource.Values{"key": opts.Key, "value": value}
	if opts.cmd == nil || opts.cmd.Flags().Changed("description") {
		values["description"] = opts.Description
	}
	// Both bodies are checked before anything is sent.
	create, err := r.Body(resource.VerbCreate, nil, values)
	if err != nil {
		return valueError(err)
	}
	update, err := r.Body(resource.VerbUpdate, nil, values)
	if err != nil {
		return valueError(err)
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	// Create first: a set whose answer was lost, run again, is the same
	// create, which the journal finishes with the server's replay. A key
	// already taken makes it an update, under a key of its own when one
	// was given (the same on every run).
	verb := "Created"
	s, resp, err := c.Secrets.Create(ctx, create, mo, client.WaitOptions{})
	if taken(err) {
		verb = "Updated"
		ref, err := refOf(ctx, c, opts.Key)
		if err != nil {
			return err
		}
		if mo.IdempotencyKey != "" {
			mo.IdempotencyKey += "-update"
		}
		s, resp, err = c.Secrets.Update(ctx, ref, update, mo)
		if err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if s != nil {
		s.Value = nil // never printed back
	}
	ios := opts.IO
	return opts.Finish(resp, s, false, func() error {
		if ios.Quiet() {
			return nil
		}
		_, err := fmt.Fprintf(ios.Out, "%s %s secret %s\n", iostreams.Check(ios.ColorScheme()), verb, output.Sanitize(opts.Key))
		return err
	})
}

// taken reports whether a create was refused because the key exists.
func taken(err error) bool {
	ce, ok := client.AsError(err)
	if !ok || ce.Code != client.CodeValidation {
		return false
	}
	_, onKey := ce.Details["key"]
	return onKey
}

// refOf names the secret key in a path: its key, or its id when the key is
// all digits (a path segment of digits is an id).
func refOf(ctx context.Context, c *client.Client, key string) (string, error) {
	if strings.Trim(key, "0123456789") != "" {
		return key, nil
	}
	all, err := c.Secrets.ListAll(ctx, client.ListOptions{Filters: map[string]string{"key": key}})
	if err != nil {
		return "", err
	}
	for _, s := range all {
		if s.Key == key {
			return strconv.FormatInt(s.ID, 10), nil
		}
	}
	return key, nil
}

// readValue is the value from --value, --value-file or standard input (a
// prompt without echo on a terminal), one final line break removed.
func readValue(ctx context.Context, opts *SetOptions) (string, error) {
	ios := opts.IO
	stdin := opts.ValueFile == "" || opts.ValueFile == "-"
	var value string
	switch {
	case opts.ValueGiven:
		value = opts.Value
	case !stdin:
		f, err := os.Open(opts.ValueFile)
		if err != nil {
			return "", output.FlagErrorf("--value-file: cannot read %q: %v", opts.ValueFile, pathProblem(err))
		}
		defer f.Close()
		if value, err = readLimited(f); err != nil {
			return "", err
		}
	case ios.CanPrompt(): // standard input is a terminal: ask, without echo
		v, err := output.PromptSecret(ctx, ios, "Value for "+output.Sanitize(opts.Key)+": ")
		if err != nil {
			return "", err
		}
		value = v
	case ios.IsStdinTTY():
		return "", output.FlagErrorf("give the value on standard input, with --value-file FILE, or with --value")
	default:
		v, err := readLimited(ios.In)
		if err != nil {
			return "", err
		}
		value = v
	}
	value = strings.TrimSuffix(value, "\n")
	value = strings.TrimSuffix(value, "\r")
	if value == "" {
		return "", output.FlagErrorf("the value of %s is empty", output.Sanitize(opts.Key))
	}
	return value, nil
}

// readLimited reads a value, refusing one longer than a secret may be
// (at most 4 bytes a character) without reading on.
func readLimited(r io.Reader) (string, error) {
	limit := int64(4*resource.SecretValueMax + 2)
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return "", output.FlagErrorf("cannot read the value: %v", pathProblem(err))
	}
	if int64(len(b)) > limit {
		return "", output.FlagErrorf("the value is too long (at most %d characters)", resource.SecretValueMax)
	}
	return string(b), nil
}

// valueError words a refusal of the description: the key is the argument,
// the value is never quoted.
func valueError(err error) error {
	var ie *resource.InputError
	if !errors.As(err, &ie) {
		return err
	}
	switch ie.Arg {
	case "key":
		return output.FlagErrorf("invalid KEY: %s", ie.Problem)
	case "value":
		return output.FlagErrorf("the value %s", ie.Problem)
	}
	return output.FlagErrorf("--%s %s", ie.Arg, ie.Problem)
}

func pathProblem(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
