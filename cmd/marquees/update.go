package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/present"
)

// UpdateOptions are the inputs of `fibe marquees update`.
type UpdateOptions struct {
	Factory  *cmdutil.Factory
	Ref      string
	Body     map[string]any
	Mutation cmdutil.MutationFlags
}

// NewCmdUpdate builds `fibe marquees update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Factory: f}
	var fl fields
	cmd := &cobra.Command{
		Use:   "update <id|name> [--name NEW] [--host H] [--port N] [--user U] [--ssh-key-file PATH] [-f payload.json|-]",
		Short: "Change a marquee",
		Example: `  fibe mq update staging --port 2222
  fibe mq update staging --ssh-key-file ~/.ssh/fibe_staging`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompleteMarqueeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			body, err := fl.body(f, cmd)
			if err != nil {
				return err
			}
			if len(body) == 0 {
				return present.FlagErrorf("nothing to change: give --name, --host, --port, --user, --ssh-key-file or -f")
			}
			opts.Body = body
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return updateRun(cmd.Context(), opts)
		},
	}
	addFieldFlags(cmd, &fl, "New name")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	f := opts.Factory
	mo, _, c, err := cmdutil.Prepare(f, &opts.Mutation, nil)
	if err != nil {
		return err
	}
	m, resp, err := c.Marquees.Update(ctx, opts.Ref, opts.Body, mo)
	if err != nil {
		return err
	}
	return cmdutil.Finish(f, resp, m, false, func() error { return printMarquee(f.IOStreams, m) })
}
