package playspecs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateOptions are the inputs of `fibe playspecs create`.
type CreateOptions = cmdutil.CreateOptions[client.Playspec]

// NewCmdCreate builds `fibe playspecs create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	return cmdutil.NewCmdCreate(f, cmdutil.CreateSpec[client.Playspec]{
		Resource: resource.Playspecs(),
		Use:      "create --name NAME --compose FILE|- [--description TEXT] [--persist-volumes] [--job-mode] [-f payload.json|-]",
		Short:    "Create a playspec from a compose file",
		Long: `Create a playspec from a Docker Compose file. A compose that is not YAML
is refused here, with the line and column of the problem, and nothing is
sent. Service definitions and the trigger, muti and schedule configs go
in a payload (-f) under their API names.`,
		Example: `  fibe ps create --name shop --compose docker-compose.yml
  cat docker-compose.yml | fibe ps create --name shop --compose - --persist-volumes`,
		Card: printPlayspec,
	}, runF)
}
