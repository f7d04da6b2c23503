// Package agents implements `fibe agents`: the account's AI coding agents,
// their copies and their runtime status.
package agents

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdAgents is the `fibe agents` group: the generic verbs of the
// description, plus duplicate and runtime-status.
func NewCmdAgents(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewCmdResource(f, resource.Agents())
	cmd.AddCommand(
		NewCmdDuplicate(f, nil),
		NewCmdRuntimeStatus(f, nil),
	)
	return cmd
}
