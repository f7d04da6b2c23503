package tricks

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// LogsOptions are the inputs of `fibe tricks logs`.
type LogsOptions struct {
	cmdutil.Seams
	Ref      string
	Service  string
	Tail     int
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdLogs builds `fibe tricks logs <id|name>`.
func NewCmdLogs(f *cmdutil.Factory, runF func(context.Context, *LogsOptions) error) *cobra.Command {
	opts := &LogsOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "logs <id|name> [--service S] [--tail N]",
		Short: "Show a trick's logs",
		Long: `Show the recent log lines of a trick's services (an async operation,
waited on unless --no-wait).`,
		Example:           `  fibe tricks logs nightly-tests-1f2e3d4c --service worker --tail 200`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Tail < 0 {
				return output.FlagErrorf("--tail must be 0 or more")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return logsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Service, "service", "s", "", "Only this service")
	cmd.Flags().IntVarP(&opts.Tail, "tail", "n", 0, "Number of recent lines (default: the server's)")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func logsRun(ctx context.Context, opts *LogsOptions) error {
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Fetching logs of "+opts.Ref, wo)
	lines, resp, err := c.Tricks.Logs(ctx, opts.Ref, opts.Service, opts.Tail, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	if lines == nil {
		lines = []string{}
	}
	return opts.Finish(resp, map[string]any{"lines": lines}, opts.Wait.NoWait, func() error {
		text := strings.Join(output.LogLines(opts.IO, lines), "\n")
		if text != "" {
			text += "\n"
		}
		_, err := opts.IO.Out.Write([]byte(text))
		return err
	})
}
