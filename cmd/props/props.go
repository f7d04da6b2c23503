// Package props implements `fibe props`: the git repositories linked to
// Fibe. The generic verbs (list, get, create, update, delete) come from the
// resource's description; attach, mirror, sync, branches and env-defaults
// are its own.
package props

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdProps is the `fibe props` group.
func NewCmdProps(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewCmdResource(f, resource.Props())
	cmd.AddCommand(
		NewCmdAttach(f, nil),
		NewCmdMirror(f, nil),
		NewCmdSync(f, nil),
		NewCmdBranches(f, nil),
		NewCmdEnvDefaults(f, nil),
	)
	return cmd
}

// printProp prints the card of a prop, as `props get` does.
func printProp(ios *iostreams.IOStreams, p any) error {
	return cmdutil.PrintCard(ios, resource.Props(), p)
}

// completeProps completes a prop's name.
func completeProps(f *cmdutil.Factory) cmdutil.CompletionFunc {
	return cmdutil.CompleteNames(f, resource.Props())
}
