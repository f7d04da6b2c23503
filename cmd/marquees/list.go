package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ListOptions are the inputs of `fibe marquees list`.
type ListOptions = cmdutil.ListOptions[client.Marquee]

// listSpec is `fibe marquees list`: the statuses and sort keys the API
// accepts in a marquee list (docs/api.md), and the table.
func listSpec() cmdutil.ListSpec[client.Marquee] {
	return cmdutil.ListSpec[client.Marquee]{
		Resource: resource.Marquees(),
		Long: `List marquees, filtered on the server. Filters combine (all must match)
and apply before paging.`,
		Example: `  fibe mq list
  fibe mq list --status active --sort name_asc
  fibe mq list --all --jq '.[] | select(.billing_runtime_active) | .name'`,
	}
}

// NewCmdList builds `fibe marquees list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdList(f, listSpec(), runF)
}
