package webhooks

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateOptions are the inputs of `fibe webhooks create`.
type CreateOptions = cmdutil.CreateOptions[client.WebhookEndpoint]

func createSpec() cmdutil.CreateSpec[client.WebhookEndpoint] {
	return cmdutil.CreateSpec[client.WebhookEndpoint]{
		Resource: resource.Webhooks(),
		Use:      "create --url URL --event EVENT... [--description D] [--secret-file F] [-f payload.json|-]",
		Short:    "Create a webhook endpoint and print its signing secret (once)",
		Long: `Create a webhook endpoint. Every event it subscribes to (--event, once per
event; see "fibe webhooks event-types") is posted to --url,
signed with the endpoint's secret. Without --secret-file the server makes
one; either way it is printed this once, on standard output: keep it,
"fibe webhooks verify" and your receiver need it.`,
		Example: `  fibe webhooks create --url http://127.0.0.1:3000/hook --event playground.created --event playground.status.changed
  fibe webhooks create --url https://ci.example.com/fibe --event playground.destroyed --jq .secret > secret.txt`,
		Card: printEndpoint,
		Created: func(_ context.Context, _ *client.Client, s cmdutil.Seams, _ *client.Response, e *client.WebhookEndpoint) error {
			if err := printEndpoint(s.IO, e); err != nil {
				return err
			}
			if e.Secret == "" {
				return nil
			}
			fmt.Fprintf(s.IO.Out, "Secret: %s\n", e.Secret)
			s.IO.Notice("The secret is shown only now: keep it to verify deliveries (fibe webhooks verify).")
			return nil
		},
	}
}

// NewCmdCreate builds `fibe webhooks create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	return cmdutil.NewCmdCreate(f, createSpec(), runF)
}
