package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// UpdateOptions are the inputs of `fibe playgrounds update`.
type UpdateOptions = cmdutil.UpdateOptions[client.Playground]

func updateSpec(complete cmdutil.CompletionFunc) cmdutil.UpdateSpec[client.Playground] {
	return cmdutil.UpdateSpec[client.Playground]{
		Resource: resource.Playgrounds(),
		Use:      "update <id|name> [--name NEW] [--env K=V ...] [-f payload.json|-]",
		Example: `  fibe pg update preview-42 --env FEATURE_X=on
  fibe pg update preview-42 --name preview-42b`,
		Complete: complete,
		Card:     printPlayground,
	}
}

// NewCmdUpdate builds `fibe playgrounds update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	return cmdutil.NewCmdUpdate(f, updateSpec(cmdutil.CompletePlaygroundNames(f)), runF)
}
