package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// DeleteOptions are the inputs of `fibe playgrounds delete`.
type DeleteOptions struct {
	Factory  *cmdutil.Factory
	Ref      string
	Yes      bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdDelete builds `fibe playgrounds delete <id|name>`.
func NewCmdDelete(f *cmdutil.Factory, runF func(context.Context, *DeleteOptions) error) *cobra.Command {
	opts := &DeleteOptions{Factory: f}
	cmd := &cobra.Command{
		Use:               "delete <id|name> [--yes]",
		Aliases:           []string{"rm", "destroy"},
		Short:             "Delete a playground",
		Long:              "Delete a playground. On a terminal you are asked to confirm unless --yes is given; elsewhere --yes is required.",
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return deleteRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Do not ask for confirmation")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func deleteRun(ctx context.Context, opts *DeleteOptions) error {
	f := opts.Factory
	mo, err := opts.Mutation.Options()
	if err != nil {
		return err
	}
	wo, err := opts.Wait.Options(f)
	if err != nil {
		return err
	}
	if err := cmdutil.ConfirmDestructive(f, opts.Yes, "Delete playground "+cmdutil.Describe(opts.Ref)+"?"); err != nil {
		return err
	}
	c, err := f.Client()
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Deleting playground "+opts.Ref, wo)
	resp, err := c.Playgrounds.Delete(ctx, opts.Ref, mo, wo)
	stop()
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	if accepted, err := cmdutil.Accepted(f, resp, opts.Wait.NoWait); accepted {
		return err
	}
	cmdutil.ReplayNotice(f, resp)
	ios := f.IOStreams
	if ios.JSON() {
		return ios.PrintJSON(map[string]any{"deleted": true, "playground": opts.Ref})
	}
	if !ios.Quiet() {
		_, err = ios.Out.Write([]byte(output.Check(ios.ColorScheme()) + " Deleted playground " + opts.Ref + "\n"))
	}
	return err
}
