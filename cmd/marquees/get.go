package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// GetOptions are the inputs of `fibe marquees get`.
type GetOptions = cmdutil.GetOptions[client.Marquee]

func getSpec(complete cmdutil.CompletionFunc) cmdutil.GetSpec[client.Marquee] {
	return cmdutil.GetSpec[client.Marquee]{
		Resource: resource.Marquees(),
		Example: `  fibe mq get prod-eu
  fibe mq get prod-eu --jq .paid_until`,
		Complete: complete,
		Card:     printMarquee,
	}
}

// NewCmdGet builds `fibe marquees get <id|name>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	return cmdutil.NewCmdGet(f, getSpec(cmdutil.CompleteMarqueeNames(f)), runF)
}
