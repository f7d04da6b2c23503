package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ListOptions are the inputs of `fibe playgrounds list`.
type ListOptions = cmdutil.ListOptions[client.Playground]

// listSpec is `fibe playgrounds list`: the statuses and sort keys the API
// accepts in a playground list (docs/api.md), the playground's own
// filters, and the table. f is only for completion; tests may pass nil.
func listSpec(f *cmdutil.Factory) cmdutil.ListSpec[client.Playground] {
	return cmdutil.ListSpec[client.Playground]{
		Resource: resource.Playgrounds(),
		Long: `List playgrounds, filtered on the server. Filters combine (all must
match) and apply before paging.`,
		Example: `  fibe pg list
  fibe pg list --status running --all
  fibe pg list --playspec web --marquee prod-eu --sort created_at_desc
  fibe pg list --search preview --created-after 2026-01-31
  fibe pg list --json | jq '.[] | select(.status=="running") | .name'
  fibe pg list --jq '.[].name'`,
	}
}

// NewCmdList builds `fibe playgrounds list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdList(f, listSpec(f), runF)
}
