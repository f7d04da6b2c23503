package templates

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// ForkOptions are the inputs of `fibe templates fork`.
type ForkOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
}

// NewCmdFork builds `fibe templates fork <template>`.
func NewCmdFork(f *cmdutil.Factory, runF func(context.Context, *ForkOptions) error) *cobra.Command {
	opts := &ForkOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "fork <template>",
		Short: "Copy another player's public template into a template of your own",
		Long: `Copy another player's public template (its latest public version) into a
new template of your own. Your own templates cannot be forked
(FORK_FAILED), nor a template without a public version.`,
		Example: `  fibe templates fork 17
  fibe templates fork 17 --jq .id`,
		Args: cmdutil.ExactArgs(1, "<template>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return forkRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func forkRun(ctx context.Context, opts *ForkOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	t, resp, err := c.Templates.Fork(ctx, opts.Ref, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, t, false, func() error { return printTemplate(opts.IO, t) })
}

func printTemplate(ios *iostreams.IOStreams, t any) error {
	return cmdutil.PrintCard(ios, resource.Templates(), t)
}
