package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// NewCmdDelete builds `fibe marquees delete <id|name>`.
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, deleteSpec(cmdutil.CompleteMarqueeNames(f)))
}

func deleteSpec(complete cmdutil.CompletionFunc) cmdutil.DeleteSpec {
	return cmdutil.DeleteSpec{
		Noun:     "marquee",
		Aliases:  []string{"rm"},
		Example:  `  fibe mq delete staging --yes`,
		Complete: complete,
		Delete: func(ctx context.Context, c *client.Client, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error) {
			return c.Marquees.Delete(ctx, ref, mo, wo)
		},
	}
}
