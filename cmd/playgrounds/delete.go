package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// NewCmdDelete builds `fibe playgrounds delete <id|name>`.
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{
		Noun:    "playground",
		Aliases: []string{"rm", "destroy"},
		Example: `  fibe pg delete preview-42
  fibe pg delete preview-42 --yes --no-wait`,
		Complete: cmdutil.CompletePlaygroundNames(f),
		Delete: func(ctx context.Context, c *client.Client, ref string, mo client.MutationOptions, wo client.WaitOptions) (*client.Response, error) {
			return c.Playgrounds.Delete(ctx, ref, mo, wo)
		},
	})
}
