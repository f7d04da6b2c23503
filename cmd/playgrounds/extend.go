package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// ExtendOptions are the inputs of `fibe playgrounds extend`.
type ExtendOptions struct {
	Factory  *cmdutil.Factory
	Ref      string
	Hours    int
	Mutation cmdutil.MutationFlags
}

// NewCmdExtend builds `fibe playgrounds extend <id|name> --hours N`.
func NewCmdExtend(f *cmdutil.Factory, runF func(context.Context, *ExtendOptions) error) *cobra.Command {
	opts := &ExtendOptions{Factory: f}
	cmd := &cobra.Command{
		Use:               "extend <id|name> [--hours N]",
		Short:             "Extend a playground's expiration",
		Example:           `  fibe pg extend preview-42 --hours 48`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Hours <= 0 {
				return output.FlagErrorf("--hours must be positive")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return extendRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.Hours, "hours", 24, "Hours to add")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func extendRun(ctx context.Context, opts *ExtendOptions) error {
	f := opts.Factory
	mo, _, c, err := cmdutil.Prepare(f, &opts.Mutation, nil)
	if err != nil {
		return err
	}
	p, resp, err := c.Playgrounds.Extend(ctx, opts.Ref, opts.Hours, mo)
	if err != nil {
		return err
	}
	return cmdutil.Finish(f, resp, p, false, func() error { return printPlayground(f.IOStreams, p) })
}
