// Package playgrounds implements `fibe playgrounds` (alias `pg`): list,
// inspect, create, change and delete playgrounds, run their operations
// (rollout, restart, stop, start), wait for them and read their logs.
package playgrounds

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// NewCmdPlaygrounds is the `fibe playgrounds` group.
func NewCmdPlaygrounds(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "playgrounds <command>",
		Aliases: []string{"pg", "playground"},
		Short:   "Manage playgrounds (alias: pg)",
		Long:    "Manage playgrounds. A playground is addressed by numeric id or by name.",
	})
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdGet(f, nil),
		NewCmdCreate(f, nil),
		NewCmdUpdate(f, nil),
		NewCmdDelete(f),
		NewCmdAction(f, actionRollout, nil),
		NewCmdAction(f, actionRestart, nil),
		NewCmdAction(f, actionStop, nil),
		NewCmdAction(f, actionStart, nil),
		NewCmdStatus(f, nil),
		NewCmdWait(f, nil),
		NewCmdLogs(f, nil),
		NewCmdExtend(f, nil),
		NewCmdShell(f, nil),
	)
	return cmd
}
