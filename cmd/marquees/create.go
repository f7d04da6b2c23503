package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateOptions are the inputs of `fibe marquees create`.
type CreateOptions = cmdutil.CreateOptions[client.Marquee]

func createSpec() cmdutil.CreateSpec[client.Marquee] {
	return cmdutil.CreateSpec[client.Marquee]{
		Resource: resource.Marquees(),
		Use:      "create --name NAME --host HOST [--port N] [--user U] [--ssh-key-file PATH] [-f payload.json|-]",
		Short:    "Register a marquee",
		Example:  `  fibe mq create --name staging --host 203.0.113.7 --user deploy --ssh-key-file ~/.ssh/fibe_staging`,
		Card:     printMarquee,
	}
}

// NewCmdCreate builds `fibe marquees create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	return cmdutil.NewCmdCreate(f, createSpec(), runF)
}
