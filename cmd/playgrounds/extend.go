package playgrounds

import (
	"context"

	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// ExtendOptions are the inputs of `fibe playgrounds extend`.
type ExtendOptions struct {
	cmdutil.Seams
	Ref      string
	Hours    int
	Mutation cmdutil.MutationFlags
}

// NewCmdExtend builds `fibe playgrounds extend <id|name> --hours N`.
func NewCmdExtend(f *cmdutil.Factory, runF func(context.Context, *ExtendOptions) error) *cobra.Command {
	opts := &ExtendOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "extend <id|name> [--hours N]",
		Short: "Extend a playground's expiration",
		Long: `Extend a playground's expiration by --hours, or without it by the
platform's default extension (24 hours).`,
		Example: `  fibe pg extend preview-42
  fibe pg extend preview-42 --hours 48`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if cmd.Flags().Changed("hours") && opts.Hours <= 0 {
				return output.FlagErrorf("--hours must be positive")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return extendRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.Hours, "hours", 0, "Hours to add (default: the platform's default extension)")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func extendRun(ctx context.Context, opts *ExtendOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	x, resp, err := c.Playgrounds.Extend(ctx, opts.Ref, opts.Hours, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, x, false, func() error {
		d := iostreams.NewDetail(opts.IO.Out, opts.IO.ColorScheme())
		d.Add("Playground", opts.Ref)
		if x.ID != 0 {
			d.Add("ID", strconv.FormatInt(x.ID, 10))
		}
		d.Add("Expires", cmdutil.FormatTime(x.ExpiresAt))
		return d.Render()
	})
}
