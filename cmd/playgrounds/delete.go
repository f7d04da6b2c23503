package playgrounds

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdDelete builds `fibe playgrounds delete <id|name>`.
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, cmdutil.DeleteSpec{
		Resource: resource.Playgrounds(),
		Aliases:  []string{"rm", "destroy"},
		Example: `  fibe pg delete preview-42
  fibe pg delete preview-42 --yes --no-wait`,
		Complete: cmdutil.CompletePlaygroundNames(f),
	})
}
