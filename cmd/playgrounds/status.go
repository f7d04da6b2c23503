package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// StatusOptions are the inputs of `fibe playgrounds status`.
type StatusOptions struct {
	cmdutil.Seams
	Ref      string
	Refresh  bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdStatus builds `fibe playgrounds status <id|name> [--refresh]`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "status <id|name> [--refresh]",
		Short: "Show a playground's status",
		Long: `Show a playground's status, with the failed step and diagnostics when it
failed. --refresh asks the marquee for the live state first (an async
operation).`,
		Example: `  fibe pg status preview-42
  fibe pg status preview-42 --refresh`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return statusRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Refresh, "refresh", false, "Refresh the status from the marquee (async)")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func statusRun(ctx context.Context, opts *StatusOptions) error {
	human := func(st *client.PlaygroundStatus) func() error {
		return func() error { return printStatus(opts.IO, st) }
	}
	if !opts.Refresh {
		c, err := opts.Client()
		if err != nil {
			return err
		}
		st, resp, err := c.Playgrounds.Status(ctx, opts.Ref)
		if err != nil {
			return err
		}
		return opts.Finish(resp, st, false, human(st))
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Refreshing "+opts.Ref, wo)
	st, resp, err := c.Playgrounds.RefreshStatus(ctx, opts.Ref, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	return opts.Finish(resp, st, st == nil, human(st))
}
