// Package ops implements `fibe ops`: a look at, or a wait on, an async
// operation by its request id, so an operation that outlived a command
// (--no-wait, a timeout, Ctrl-C) can be resumed.
package ops

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// NewCmdOps is the `fibe ops` group.
func NewCmdOps(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "ops <command>",
		Aliases: []string{"op", "operations"},
		Short:   "Inspect and resume async operations",
	})
	cmd.AddCommand(NewCmdGet(f, nil), NewCmdWait(f, nil))
	cmd.AddCommand(NewCmdPending(f, nil), NewCmdForget(f, nil)) // the outcome journal
	return cmd
}
