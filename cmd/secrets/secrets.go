// Package secrets implements `fibe secrets`: values the platform keeps for
// a player, named by a key. A value is read from standard input or a file
// (from the command line only with --value), is never printed unless
// `get --reveal` asks for it, and never reaches the journal, the --debug
// trace or a suggested command line.
package secrets

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdSecrets is the `fibe secrets` group.
func NewCmdSecrets(f *cmdutil.Factory) *cobra.Command {
	r := resource.Secrets()
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "secrets <command>",
		Aliases: r.Aliases,
		Short:   r.Short,
	})
	cmd.AddCommand(
		NewCmdSet(f, nil),
		NewCmdGet(f, nil),
		cmdutil.NewCmdList(f, cmdutil.ListSpec[client.Secret]{Resource: r,
			Long:    "List secrets: their keys and descriptions, never their values.",
			Example: "  fibe secrets list\n  fibe secrets list --key DB_ --jq '.[].key'"}, nil),
		cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{Resource: r, Aliases: []string{"rm"},
			Example: "  fibe secrets delete DB_URL --yes", Complete: cmdutil.CompleteSecretKeys(f)}),
	)
	return cmd
}
