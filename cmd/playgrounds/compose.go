package playgrounds

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// ComposeOptions are the inputs of `fibe playgrounds compose`.
type ComposeOptions struct {
	cmdutil.Seams
	Ref string
}

// NewCmdCompose builds `fibe playgrounds compose <id|name>`.
func NewCmdCompose(f *cmdutil.Factory, runF func(context.Context, *ComposeOptions) error) *cobra.Command {
	opts := &ComposeOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "compose <id|name>",
		Short: "Print the compose file a playground runs",
		Long: `Print the compose file the platform rendered for a playground, as YAML.
A playground still being created has none yet: the command then says so on
stderr and prints nothing. --json prints compose_yaml and compose_project.`,
		Example: `  fibe pg compose preview-42 > compose.yml
  fibe pg compose preview-42 --jq .compose_project`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return composeRun(cmd.Context(), opts)
		},
	}
}

func composeRun(ctx context.Context, opts *ComposeOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	cmp, resp, err := c.Playgrounds.Compose(ctx, opts.Ref)
	if err != nil {
		return err
	}
	return opts.Finish(resp, cmp, false, func() error { return printCompose(opts.IO, opts.Ref, cmp) })
}

// printCompose writes the YAML as it came when piped (a file to keep);
// at a terminal each line is sanitized.
func printCompose(ios *iostreams.IOStreams, ref string, cmp *client.PlaygroundCompose) error {
	if cmp.ComposeYAML == "" {
		ios.Notice("The compose file of %s is not rendered yet; try again once it runs (fibe pg wait %s).",
			output.Sanitize(ref), output.Sanitize(ref))
		return nil
	}
	text := cmp.ComposeYAML
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if ios.IsStdoutTTY() {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		text = strings.Join(output.SanitizeAll(lines...), "\n") + "\n"
	}
	_, err := io.WriteString(ios.Out, text)
	return err
}
