package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// UpdateOptions are the inputs of `fibe marquees update`.
type UpdateOptions = cmdutil.UpdateOptions[client.Marquee]

func updateSpec(complete cmdutil.CompletionFunc) cmdutil.UpdateSpec[client.Marquee] {
	return cmdutil.UpdateSpec[client.Marquee]{
		Resource: resource.Marquees(),
		Use:      "update <id|name> [--name NEW] [--host H] [--port N] [--user U] [--ssh-key-file PATH] [-f payload.json|-]",
		Example: `  fibe mq update staging --port 2222
  fibe mq update staging --ssh-key-file ~/.ssh/fibe_staging`,
		Complete: complete,
		Card:     printMarquee,
	}
}

// NewCmdUpdate builds `fibe marquees update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	return cmdutil.NewCmdUpdate(f, updateSpec(cmdutil.CompleteMarqueeNames(f)), runF)
}
