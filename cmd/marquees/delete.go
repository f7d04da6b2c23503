package marquees

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdDelete builds `fibe marquees delete <id|name>`.
func NewCmdDelete(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.NewCmdDelete(f, deleteSpec(cmdutil.CompleteMarqueeNames(f)))
}

func deleteSpec(complete cmdutil.CompletionFunc) cmdutil.DeleteSpec {
	return cmdutil.DeleteSpec{
		Resource: resource.Marquees(),
		Aliases:  []string{"rm"},
		Example:  `  fibe mq delete staging --yes`,
		Complete: complete,
	}
}
