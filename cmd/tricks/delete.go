package tricks

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdDelete builds `fibe tricks delete <id|name>`: a trick is a
// playground, deleted as one.
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{
		Resource: resource.Playgrounds(),
		Aliases:  []string{"rm"},
		Example:  `  fibe tricks delete nightly-tests-1f2e3d4c --yes`,
		Complete: cmdutil.CompletePlaygroundNames(f),
	})
}
