// Package playspecs implements `fibe playspecs` (alias `ps`): the
// templates playgrounds are made from. A compose given with --compose (a
// file, or - for stdin) is checked as YAML before anything is sent.
package playspecs

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdPlayspecs is the `fibe playspecs` group.
func NewCmdPlayspecs(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "playspecs <command>",
		Aliases: resource.Playspecs().Aliases,
		Short:   "Manage playspecs, the templates playgrounds are made from (alias: ps)",
	})
	cmd.AddCommand(
		NewCmdList(f, nil),
		NewCmdGet(f, nil),
		NewCmdCreate(f, nil),
		NewCmdUpdate(f, nil),
		NewCmdDelete(f),
		NewCmdServices(f, nil),
		NewCmdValidate(f, nil),
	)
	return cmd
}
