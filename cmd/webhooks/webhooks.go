// Package webhooks implements `fibe webhooks` (alias `wh`): the endpoints
// that receive the platform's signed event deliveries, their test
// deliveries and delivery history, the event types, and `verify`, which
// checks a saved delivery's signature offline. The signing secret is
// printed once, by create.
package webhooks

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdWebhooks is the `fibe webhooks` group.
func NewCmdWebhooks(f *cmdutil.Factory) *cobra.Command {
	r := resource.Webhooks()
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "webhooks <command>",
		Aliases: r.Aliases,
		Short:   r.Short + " (alias: wh)",
	})
	cmd.AddCommand(
		cmdutil.NewCmdList(f, cmdutil.ListSpec[client.WebhookEndpoint]{Resource: r,
			Example: "  fibe webhooks list\n  fibe webhooks list --enabled false --jq '.[].url'"}, nil),
		cmdutil.NewCmdGet(f, cmdutil.GetSpec[client.WebhookEndpoint]{Resource: r, Card: printEndpoint,
			Example: "  fibe webhooks get 12\n  fibe webhooks get 12 --jq .failure_count"}, nil),
		NewCmdCreate(f, nil),
		cmdutil.NewCmdUpdate(f, cmdutil.UpdateSpec[client.WebhookEndpoint]{Resource: r, Card: printEndpoint,
			Use: "update <id> [--url URL] [--event E]... [--description D] [--enabled=false] [--secret-file F]",
			Example: "  fibe webhooks update 12 --enabled=false\n" +
				"  fibe webhooks update 12 --event playground.created --event playground.destroyed   # replaces the list"}, nil),
		cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{Resource: r, Aliases: []string{"rm"}, Example: "  fibe webhooks delete 12 --yes"}),
		NewCmdTest(f, nil),
		NewCmdDeliveries(f, nil),
		NewCmdEventTypes(f, nil),
		NewCmdVerify(f, nil),
	)
	return cmd
}

func printEndpoint(ios *iostreams.IOStreams, e *client.WebhookEndpoint) error {
	return cmdutil.PrintCard(ios, resource.Webhooks(), e)
}
