// Package playgrounds implements `fibe playgrounds` (alias `pg`): list,
// inspect, create, change and delete playgrounds, run their operations
// (rollout, restart, stop, start), wait for them, read their logs, and show
// their environment, compose file and diagnostics.
package playgrounds

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdPlaygrounds is the `fibe playgrounds` group.
func NewCmdPlaygrounds(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "playgrounds <command>",
		Aliases: resource.Playgrounds().Aliases,
		Short:   "Manage playgrounds (alias: pg)",
		Long:    "Manage playgrounds. A playground is addressed by numeric id or by name.",
	})
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdGet(f, nil),
		NewCmdCreate(f, nil),
		NewCmdUpdate(f, nil),
		NewCmdDelete(f),
		NewCmdStatus(f, nil),
		NewCmdWait(f, nil),
		NewCmdLogs(f, nil),
		NewCmdExtend(f, nil),
		NewCmdShell(f, nil),
		NewCmdEnv(f, nil),
		NewCmdCompose(f, nil),
		NewCmdDebug(f, nil),
	)
	cmd.AddCommand(newCmdActions(f)...)
	return cmd
}
