package tricks

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// StatusOptions are the inputs of `fibe tricks status`.
type StatusOptions struct {
	cmdutil.Seams
	Ref string
}

// NewCmdStatus builds `fibe tricks status <id|name>`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "status <id|name>",
		Short: "Show a trick's status and its job's result",
		Long: `Show a trick's status, its outcome (succeeded, failed, unknown or
running) and, once its job has run, each service's result and exit code.`,
		Example:           `  fibe tricks status nightly-tests-1f2e3d4c`,
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
	return cmd
}

func statusRun(ctx context.Context, opts *StatusOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	st, resp, err := c.Tricks.Status(ctx, opts.Ref)
	if err != nil {
		return err
	}
	return opts.Finish(resp, st, false, func() error { return printTrickStatus(opts.IO, st) })
}
