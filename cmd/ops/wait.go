package ops

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// WaitOptions are the inputs of `fibe ops wait`.
type WaitOptions struct {
	Factory   *cmdutil.Factory
	RequestID string
	Wait      cmdutil.WaitFlags
}

// NewCmdWait builds `fibe ops wait <request-id>`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "wait <request-id>",
		Short: "Wait for an async operation to finish",
		Long: `Wait for an async operation to finish and print its result, exactly as
the command that started it would have. A failed operation exits 11.`,
		Example: `  fibe ops wait req_5c1d`,
		Args:    cmdutil.ExactArgs(1, "<request-id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.RequestID = args[0]
			if err := validRequestID(opts.RequestID); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return waitRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddWaitDurationFlags(cmd, &opts.Wait)
	return cmd
}

func waitRun(ctx context.Context, opts *WaitOptions) error {
	f := opts.Factory
	wo, err := opts.Wait.Options(f)
	if err != nil {
		return err
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Waiting for "+opts.RequestID, wo)
	result, _, err := c.Async.Wait(ctx, opts.RequestID, wo)
	stop(err)
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	if len(result) == 0 {
		result = json.RawMessage(`{}`)
	}
	ios := f.IOStreams
	if ios.JSON() {
		return ios.PrintJSON(result)
	}
	ios.Notice("Operation %s succeeded.", opts.RequestID)
	return printResult(ios, result)
}
