package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// UpdateOptions are the inputs of `fibe playgrounds update`.
type UpdateOptions = cmdutil.UpdateOptions[client.Playground]

func updateSpec(complete cmdutil.CompletionFunc) cmdutil.UpdateSpec[client.Playground] {
	return cmdutil.UpdateSpec[client.Playground]{
		Noun: "playground",
		Use:  "update <id|name> [--name NEW] [--env K=V ...] [-f payload.json|-]",
		Example: `  fibe pg update preview-42 --env FEATURE_X=on
  fibe pg update preview-42 --name preview-42b`,
		Complete: complete,
		Fields: []cmdutil.Field{
			{Flag: "name", Key: "name", Help: "New name"},
			envField,
		},
		// What a -f payload of `pg update` holds.
		Payload: cmdutil.PayloadSchema{
			Wrapper: "playground",
			Fields:  []string{"name", "env_overrides"},
			Aliases: map[string]string{"env": "env_overrides"},
		},
		Update: func(ctx context.Context, c *client.Client, ref string, body map[string]any, mo client.MutationOptions) (*client.Playground, *client.Response, error) {
			return c.Playgrounds.Update(ctx, ref, body, mo)
		},
		Card: printPlayground,
	}
}

// NewCmdUpdate builds `fibe playgrounds update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	return cmdutil.NewCmdUpdate(f, updateSpec(cmdutil.CompletePlaygroundNames(f)), runF)
}
