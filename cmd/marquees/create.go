package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// CreateOptions are the inputs of `fibe marquees create`.
type CreateOptions = cmdutil.CreateOptions[client.Marquee]

var createSpec = cmdutil.CreateSpec[client.Marquee]{
	Noun:    "marquee",
	Use:     "create --name NAME --host HOST [--port N] [--user U] [--ssh-key-file PATH] [-f payload.json|-]",
	Short:   "Register a marquee",
	Example: `  fibe mq create --name staging --host 203.0.113.7 --user deploy --ssh-key-file ~/.ssh/fibe_staging`,
	Fields:  fields("Name of the marquee", `a "name"`, `a "host"`),
	Payload: marqueePayload,
	Create: func(ctx context.Context, c *client.Client, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (*client.Marquee, *client.Response, error) {
		return c.Marquees.Create(ctx, body, mo, wo)
	},
	Card: printMarquee,
}

// NewCmdCreate builds `fibe marquees create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	return cmdutil.NewCmdCreate(f, createSpec, runF)
}
