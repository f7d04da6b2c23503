package props

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// SyncOptions are the inputs of `fibe props sync`.
type SyncOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
}

// NewCmdSync builds `fibe props sync <id|name>`.
func NewCmdSync(f *cmdutil.Factory, runF func(context.Context, *SyncOptions) error) *cobra.Command {
	opts := &SyncOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "sync <id|name>",
		Short: "Fetch a prop's repository again (branches, env files)",
		Long: `Ask Fibe to fetch a prop's repository again, so that new branches and
env files are seen. The platform schedules the sync and answers at once.`,
		Example: `  fibe props sync shop
  fibe props sync 12 --json`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: completeProps(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return syncRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func syncRun(ctx context.Context, opts *SyncOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	res, resp, err := c.Props.Sync(ctx, opts.Ref, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, res, false, func() error {
		msg := "Sync scheduled"
		if res != nil && res.Message != "" {
			msg = output.Sanitize(res.Message)
		}
		ios := opts.IO
		_, err := io.WriteString(ios.Out, iostreams.Check(ios.ColorScheme())+" "+msg+" for "+output.Sanitize(opts.Ref)+"\n")
		return err
	})
}
