// Package apikeys implements `fibe api-keys`: the player's API keys and
// their scopes. A new key's token is shown once, on standard output.
package apikeys

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdAPIKeys is the `fibe api-keys` group.
func NewCmdAPIKeys(f *cmdutil.Factory) *cobra.Command {
	r := resource.APIKeys()
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "api-keys <command>",
		Aliases: []string{"api-key"},
		Short:   r.Short,
	})
	cmd.AddCommand(
		NewCmdCreate(f, nil),
		cmdutil.NewCmdList(f, cmdutil.ListSpec[client.APIKey]{Resource: r,
			Long:    "List your API keys: labels, scopes and masked tokens, never a token.",
			Example: "  fibe api-keys list\n  fibe api-keys list --label ci --jq '.[].id'"}, nil),
		cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{Resource: r, Aliases: []string{"rm"},
			Example: "  fibe api-keys delete 42 --yes"}),
	)
	return cmd
}
