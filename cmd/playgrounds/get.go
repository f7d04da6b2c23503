package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// GetOptions are the inputs of `fibe playgrounds get`.
type GetOptions = cmdutil.GetOptions[client.Playground]

func getSpec(complete cmdutil.CompletionFunc) cmdutil.GetSpec[client.Playground] {
	return cmdutil.GetSpec[client.Playground]{
		Resource: resource.Playgrounds(),
		Example: `  fibe pg get preview-42
  fibe pg get 42 --jq .service_urls`,
		Complete: complete,
		Card:     printPlayground,
	}
}

// NewCmdGet builds `fibe playgrounds get <id|name>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	return cmdutil.NewCmdGet(f, getSpec(cmdutil.CompletePlaygroundNames(f)), runF)
}
