package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// WaitOptions are the inputs of `fibe playgrounds wait`.
type WaitOptions struct {
	cmdutil.Seams
	Ref  string
	For  string
	Wait cmdutil.WaitFlags
}

// waitable are the statuses one can wait for.
var waitable = map[string]bool{"running": true, "stopped": true}

// NewCmdWait builds `fibe playgrounds wait <id|name> [--for running]`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "wait <id|name> [--for running]",
		Short: "Wait until a playground reaches a status",
		Long: `Wait until a playground reaches a status (running by default). If it
reaches error, failed or destroyed instead, the command fails with
PLAYGROUND_TERMINAL_STATE (exit 11) and prints the reasons.`,
		Example:           `  fibe pg wait preview-42 --for running --wait-timeout 10m`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if !waitable[opts.For] {
				return output.FlagErrorf("invalid --for %q: one of running, stopped", opts.For)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return waitRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.For, "for", "running", "Status to wait for: running or stopped")
	f.CompleteFlag(cmd, "for", cobra.FixedCompletions([]string{"running", "stopped"}, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddWaitDurationFlags(cmd, &opts.Wait)
	return cmd
}

func waitRun(ctx context.Context, opts *WaitOptions) error {
	wo, err := opts.WaitOptions(&opts.Wait)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	stop := opts.Progress("Waiting for "+opts.Ref+" to be "+opts.For, wo)
	st, err := c.Playgrounds.Wait(ctx, opts.Ref, opts.For, wo)
	stop(err)
	if err != nil {
		return err
	}
	if opts.IO.JSON() {
		return opts.IO.PrintJSON(st)
	}
	return printStatus(opts.IO, st)
}
