package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// GetOptions are the inputs of `fibe marquees get`.
type GetOptions struct {
	Factory *cmdutil.Factory
	Ref     string
}

// NewCmdGet builds `fibe marquees get <id|name>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	opts := &GetOptions{Factory: f}
	return &cobra.Command{
		Use:     "get <id|name>",
		Aliases: []string{"show", "view"},
		Short:   "Show a marquee",
		Example: `  fibe mq get prod-eu
  fibe mq get prod-eu --jq .paid_until`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompleteMarqueeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(cmd.Context(), opts)
		},
	}
}

func getRun(ctx context.Context, opts *GetOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
	m, _, err := c.Marquees.Get(ctx, opts.Ref)
	if err != nil {
		return err
	}
	if opts.Factory.IOStreams.JSON() {
		return opts.Factory.IOStreams.PrintJSON(m)
	}
	return printMarquee(opts.Factory.IOStreams, m)
}
