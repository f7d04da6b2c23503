// Package apikeys implements `fibe api-keys`: the player's API keys and
// their scopes. A new key's token is shown once, on standard output.
package apikeys

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
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
	list := cmdutil.NewCmdList(f, cmdutil.ListSpec[client.APIKey]{Resource: r,
		Long:    "List your API keys: labels, scopes and masked tokens, never a token.",
		Example: "  fibe api-keys list\n  fibe api-keys list --label ci --jq '.[].id'"}, nil)
	list.Short = "List API keys"
	// The generic delete words its prompt and result with the noun.
	key := *r
	key.Singular = "key"
	del := cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{Resource: &key, Aliases: []string{"rm"},
		Example: "  fibe api-keys delete 42 --yes"})
	del.Use = "delete <id> [--yes]"
	del.Args = func(cmd *cobra.Command, args []string) error {
		if err := cmdutil.ExactArgs(1, "<id>")(cmd, args); err != nil {
			return err
		}
		if id, err := strconv.ParseInt(args[0], 10, 64); err != nil || id <= 0 {
			return output.FlagErrorf("invalid key id %q: want the number `fibe api-keys list` shows", args[0])
		}
		return nil
	}
	cmd.AddCommand(NewCmdCreate(f, nil), list, del)
	return cmd
}
