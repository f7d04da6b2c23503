package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/present"
)

// CreateOptions are the inputs of `fibe marquees create`.
type CreateOptions struct {
	Factory  *cmdutil.Factory
	Body     map[string]any
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdCreate builds `fibe marquees create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Factory: f}
	var fl fields
	cmd := &cobra.Command{
		Use:     "create --name NAME --host HOST [--port N] [--user U] [--ssh-key-file PATH] [-f payload.json|-]",
		Short:   "Register a marquee",
		Example: `  fibe mq create --name staging --host 203.0.113.7 --user deploy --ssh-key-file ~/.ssh/fibe_staging`,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			body, err := fl.body(f, cmd)
			if err != nil {
				return err
			}
			for _, k := range []string{"name", "host"} {
				if _, ok := body[k]; !ok {
					return present.FlagErrorf("--%s is required (or a %q in the payload)", k, k)
				}
			}
			opts.Body = body
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	addFieldFlags(cmd, &fl, "Name of the marquee")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	f := opts.Factory
	mo, wo, c, err := cmdutil.Prepare(f, &opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Creating marquee", wo)
	m, resp, err := c.Marquees.Create(ctx, opts.Body, mo, wo)
	stop(err)
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	return cmdutil.Finish(f, resp, m, m == nil, func() error { return printMarquee(f.IOStreams, m) })
}
