package playspecs

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// ValidateOptions are the inputs of `fibe playspecs validate`.
type ValidateOptions struct {
	cmdutil.Seams
	Compose    string // a path, or - for stdin
	TargetType string
	JobMode    bool
}

// composeInvalid is a compose the server found unusable: the check ran,
// the compose failed it (exit 1; the errors are already printed).
type composeInvalid struct{ n int }

func (e *composeInvalid) Error() string {
	return fmt.Sprintf("the compose is not valid: %d error(s)", e.n)
}

// NewCmdValidate builds `fibe playspecs validate --compose FILE`.
func NewCmdValidate(f *cmdutil.Factory, runF func(context.Context, *ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "validate --compose FILE|- [--job-mode] [--target-type TYPE]",
		Short: "Check a compose file before making a playspec of it",
		Long: `Check a compose file before making a playspec of it. The YAML is parsed
here first: a file that is not YAML is refused with the line and column
of the problem, and nothing is sent. Then the platform checks it
(services, images, fibe.gg/ labels) and answers its errors and warnings.
The command exits 1 when the compose is not valid.`,
		Example: `  fibe ps validate --compose docker-compose.yml
  cat docker-compose.yml | fibe ps validate --compose - --job-mode`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return validateRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Compose, "compose", "", "File holding the Docker Compose YAML (- for stdin)")
	cmd.Flags().StringVar(&opts.TargetType, "target-type", "", "What the compose is for, as the platform names it")
	cmd.Flags().BoolVar(&opts.JobMode, "job-mode", false, "Check it for job-mode playgrounds (a watched service is needed)")
	return cmd
}

func validateRun(ctx context.Context, opts *ValidateOptions) error {
	if opts.Compose == "" {
		return output.FlagErrorf("--compose is required: a compose file, or - for stdin")
	}
	data, err := cmdutil.ReadFileFlag(opts.IO, "--compose", opts.Compose)
	if err != nil {
		return err
	}
	if err := resource.CheckYAML(string(data)); err != nil {
		return output.FlagErrorf("--compose %s", err)
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	res, resp, err := c.Playspecs.ValidateCompose(ctx, client.ComposeCheck{YAML: string(data), TargetType: opts.TargetType, JobMode: opts.JobMode})
	if err != nil {
		return err
	}
	if err := opts.Finish(resp, res, false, func() error { return printValidation(opts.IO, res) }); err != nil {
		return err
	}
	if !res.Valid {
		return &composeInvalid{n: max(len(res.Errors), 1)}
	}
	return nil
}

func printValidation(ios *iostreams.IOStreams, res *client.ComposeValidation) error {
	cs := ios.ColorScheme()
	for _, e := range res.Errors {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", cs.Red("✗"), output.Sanitize(e))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", cs.Yellow("!"), output.Sanitize(w))
	}
	if !res.Valid {
		return nil
	}
	names := make([]string, len(res.Services))
	for i, s := range res.Services {
		names[i] = output.Sanitize(s.Name)
	}
	_, err := fmt.Fprintf(ios.Out, "%s The compose is valid: %d service(s) (%s)\n", iostreams.Check(cs), len(names), strings.Join(names, ", "))
	return err
}
