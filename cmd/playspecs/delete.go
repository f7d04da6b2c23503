package playspecs

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdDelete builds `fibe playspecs delete <id|name>`. The platform
// refuses to delete a playspec that playgrounds still use (CONFLICT).
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{
		Resource: resource.Playspecs(),
		Aliases:  []string{"rm"},
		Example:  `  fibe ps delete shop --yes`,
		Complete: cmdutil.CompletePlayspecNames(f),
	})
}
