package playspecs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// UpdateOptions are the inputs of `fibe playspecs update`.
type UpdateOptions = cmdutil.UpdateOptions[client.Playspec]

// NewCmdUpdate builds `fibe playspecs update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	return cmdutil.NewCmdUpdate(f, cmdutil.UpdateSpec[client.Playspec]{
		Resource: resource.Playspecs(),
		Use:      "update <id|name> [--name NEW] [--compose FILE|-] [--description TEXT] [--persist-volumes] [--job-mode] [-f payload.json|-]",
		Example: `  fibe ps update shop --compose docker-compose.yml
  fibe ps update shop --description "The shop, with a cache" --persist-volumes=false`,
		Complete: cmdutil.CompletePlayspecNames(f),
		Card:     printPlayspec,
	}, runF)
}
