package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// ListOptions are the inputs of `fibe playgrounds list`.
type ListOptions = cmdutil.ListOptions[client.Playground]

// listSpec is `fibe playgrounds list`: the statuses and sort keys the API
// accepts in a playground list (docs/api.md), the playground's own
// filters, and the table. f is only for completion; tests may pass nil.
func listSpec(f *cmdutil.Factory) cmdutil.ListSpec[client.Playground] {
	return cmdutil.ListSpec[client.Playground]{
		Plural: "playgrounds",
		Long: `List playgrounds, filtered on the server. Filters combine (all must
match) and apply before paging.`,
		Example: `  fibe pg list
  fibe pg list --status running --all
  fibe pg list --playspec web --marquee prod-eu --sort -created_at
  fibe pg list --search preview --created-after 2026-01-31
  fibe pg list --json | jq '.[] | select(.status=="running") | .name'
  fibe pg list --jq '.[].name'`,
		Statuses: []string{"pending", "creating", "building", "running", "stopped", "stopping", "error", "failed", "destroyed"},
		SortKeys: []string{"id", "name", "status", "created_at", "updated_at", "expires_at"},
		Filters: []cmdutil.ListFilter{
			{Flag: "playspec", Help: "Only playgrounds of this playspec (id or name)", Complete: cmdutil.CompletePlayspecFlag(f),
				Apply: func(lo *client.ListOptions, v string) { lo.PlayspecID = v }},
			{Flag: "marquee", Help: "Only playgrounds on this marquee (id or name)", Complete: cmdutil.CompleteMarqueeFlag(f),
				Apply: func(lo *client.ListOptions, v string) { lo.MarqueeID = v }},
		},
		List: func(ctx context.Context, c *client.Client, lo client.ListOptions) ([]client.Playground, *client.ListMeta, error) {
			return c.Playgrounds.List(ctx, lo)
		},
		ListAll: func(ctx context.Context, c *client.Client, lo client.ListOptions) ([]client.Playground, error) {
			return c.Playgrounds.ListAll(ctx, lo)
		},
		Table: printTable,
	}
}

// NewCmdList builds `fibe playgrounds list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	return cmdutil.NewCmdList(f, listSpec(f), runF)
}
