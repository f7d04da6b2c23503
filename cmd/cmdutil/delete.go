package cmdutil

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// DeleteSpec describes the delete command of one kind of resource.
// The API answers a delete with 204, or 202 and then the command waits
// unless --no-wait.
type DeleteSpec struct {
	Resource *resource.Resource
	Aliases  []string
	Example  string
	Complete func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)
}

// DeleteOptions are the inputs of a delete command.
type DeleteOptions struct {
	Seams
	Spec     DeleteSpec
	Ref      string
	Yes      bool
	Mutation MutationFlags
	Wait     WaitFlags
}

// NewCmdDelete builds `fibe <resources> delete <id|name> [--yes]`.
func NewCmdDelete(f *Factory, spec DeleteSpec) *cobra.Command {
	opts := &DeleteOptions{Seams: f.Seams(), Spec: spec}
	cmd := &cobra.Command{
		Use:     "delete <id|name> [--yes]",
		Aliases: spec.Aliases,
		Short:   "Delete " + spec.Resource.A(),
		Long: "Delete " + spec.Resource.A() + `. On a terminal you are asked to confirm unless
--yes is given; elsewhere --yes is required. When the server deletes in
the background (202), the command waits unless --no-wait.`,
		Example:           spec.Example,
		Args:              ExactArgs(1, "<id|name>"),
		ValidArgsFunction: spec.Complete,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			return DeleteRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Do not ask for confirmation")
	AddMutationFlags(cmd, &opts.Mutation)
	AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// DeleteRun confirms, deletes and reports.
func DeleteRun(ctx context.Context, opts *DeleteOptions) error {
	noun := opts.Spec.Resource.Singular
	mo, err := opts.Mutation.Options()
	if err != nil {
		return err
	}
	wo, err := opts.WaitOptions(&opts.Wait)
	if err != nil {
		return err
	}
	if err := opts.ConfirmDestructive(ctx, opts.Yes, "Delete "+noun+" "+Describe(opts.Ref)+"?"); err != nil {
		return err
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	stop := opts.Progress("Deleting "+noun+" "+opts.Ref, wo)
	resp, err := opts.Spec.Resource.Delete(ctx, c, opts.Ref, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	ios := opts.IO
	return opts.Finish(resp, map[string]any{"deleted": true, noun: opts.Ref}, opts.Wait.NoWait, func() error {
		if ios.Quiet() {
			return nil
		}
		_, err := io.WriteString(ios.Out, iostreams.Check(ios.ColorScheme())+" Deleted "+noun+" "+opts.Ref+"\n")
		return err
	})
}
