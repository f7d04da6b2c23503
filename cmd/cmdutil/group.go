package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/output"
)

// Group makes cmd a command that only holds subcommands: without arguments
// it prints its help, and an unknown subcommand is a usage error (cobra
// would otherwise print help and exit 0).
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return output.FlagErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
		return cmd.Help()
	}
	return cmd
}
