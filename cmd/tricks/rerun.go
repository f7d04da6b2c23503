package tricks

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// RerunOptions are the inputs of `fibe tricks rerun`.
type RerunOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdRerun builds `fibe tricks rerun <id|name>`.
func NewCmdRerun(f *cmdutil.Factory, runF func(context.Context, *RerunOptions) error) *cobra.Command {
	opts := &RerunOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "rerun <id|name>",
		Short: "Run a trick's job again",
		Long: `Start a new run with the playspec and marquee of an earlier one, under a
fresh name, and wait for its outcome as ` + "`fibe tricks run`" + ` does (the same
exit codes; --no-wait returns once it has started).`,
		Example:           `  fibe tricks rerun nightly-tests-1f2e3d4c`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return rerunRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func rerunRun(ctx context.Context, opts *RerunOptions) error {
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Starting a new run of "+opts.Ref, wo)
	p, resp, err := c.Tricks.Rerun(ctx, opts.Ref, mo, wo)
	stop(err)
	if err != nil {
		return trickFailed(opts.Seams, err)
	}
	if p == nil {
		return opts.Finish(resp, nil, true, nil)
	}
	if opts.Wait.NoWait {
		return opts.Finish(resp, p, false, func() error {
			if err := printTrick(opts.IO, p); err != nil {
				return err
			}
			opts.IO.Notice("Follow it with: %s", output.Sanitize(opts.CommandLine("tricks", "status", p.Name)))
			return nil
		})
	}
	opts.ReplayNotice(resp)
	return waitRun(ctx, opts.Seams, c, p.Name, wo)
}
