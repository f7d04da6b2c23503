package ops

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// WaitOptions are the inputs of `fibe ops wait`.
type WaitOptions struct {
	cmdutil.Seams
	// OperationOf says which request started an operation (the Factory's):
	// its result is printed as that request's command prints it.
	OperationOf func(id string) (method, path string, ok bool)
	RequestID   string
	Wait        cmdutil.WaitFlags
}

// NewCmdWait builds `fibe ops wait <request-id>`.
func NewCmdWait(f *cmdutil.Factory, runF func(context.Context, *WaitOptions) error) *cobra.Command {
	opts := &WaitOptions{Seams: f.Seams(), OperationOf: f.OperationOf}
	cmd := &cobra.Command{
		Use:   "wait <request-id>",
		Short: "Wait for an async operation to finish",
		Long: `Wait for an async operation to finish and print its result, exactly as
the command that started it would have (an operation started on another
machine prints its result's fields). A failed operation exits 11.`,
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
	wo, err := opts.WaitOptions(&opts.Wait)
	if err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	stop := opts.Progress("Waiting for "+opts.RequestID, wo)
	result, _, err := c.Async.Wait(ctx, opts.RequestID, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	if len(result) == 0 {
		result = json.RawMessage(`{}`)
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(result)
	}
	ios.Notice("Operation %s succeeded.", opts.RequestID)
	method, path := startedBy(opts.OperationOf, opts.RequestID)
	return printResult(ios, method, path, result)
}
