// Package marquees implements `fibe marquees` (alias `mq`): the servers
// playgrounds run on. The SSH private key given at creation is write-only
// and is never printed.
package marquees

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdMarquees is the `fibe marquees` group.
func NewCmdMarquees(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "marquees <command>",
		Aliases: resource.Marquees().Aliases,
		Short:   "Manage marquees, the servers playgrounds run on (alias: mq)",
	})
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdGet(f, nil),
		NewCmdCreate(f, nil),
		NewCmdUpdate(f, nil),
		NewCmdDelete(f),
		NewCmdTestConnection(f, nil),
		NewCmdSSHKey(f, nil),
		NewCmdAutoconnectToken(f, nil),
	)
	return cmd
}
