package playspecs

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ListOptions are the inputs of `fibe playspecs list`.
type ListOptions = cmdutil.ListOptions[client.Playspec]

// NewCmdList builds `fibe playspecs list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdList(f, cmdutil.ListSpec[client.Playspec]{
		Resource: resource.Playspecs(),
		Long: `List playspecs, filtered on the server. --name and --search match
substrings (--search also the description); filters combine and apply
before paging.`,
		Example: `  fibe ps list
  fibe ps list --job-mode true --sort name_asc
  fibe ps list --all --jq '.[].name'`,
	}, runF)
}
