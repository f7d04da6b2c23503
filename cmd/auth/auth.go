// Package auth implements `fibe auth`: log in with an API key (checked
// against GET /api/me, then kept in the OS keyring or a 0600 file), show
// who you are and where the key comes from, and log out.
package auth

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// NewCmdAuth is the `fibe auth` group.
func NewCmdAuth(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "auth <command>",
		Short: "Log in, check and log out",
	})
	cmd.AddCommand(NewCmdLogin(f, nil), NewCmdStatus(f, nil), NewCmdLogout(f, nil))
	return cmd
}
