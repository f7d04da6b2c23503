package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// GetOptions are the inputs of `fibe playgrounds get`.
type GetOptions struct {
	Factory *cmdutil.Factory
	Ref     string
}

// NewCmdGet builds `fibe playgrounds get <id|name>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	opts := &GetOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "get <id|name>",
		Aliases: []string{"show", "view"},
		Short:   "Show a playground",
		Example: `  fibe pg get preview-42
  fibe pg get 42 --jq .service_urls`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func getRun(ctx context.Context, opts *GetOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
	p, _, err := c.Playgrounds.Get(ctx, opts.Ref)
	if err != nil {
		return err
	}
	ios := opts.Factory.IOStreams
	if ios.JSON() {
		return ios.PrintJSON(p)
	}
	return printPlayground(ios, p)
}
