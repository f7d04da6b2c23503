package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// ListOptions are the inputs of `fibe playgrounds list`.
type ListOptions struct {
	Factory  *cmdutil.Factory
	Playspec string
	Marquee  string
	cmdutil.FilterFlags
	cmdutil.ListFlags
}

// Statuses and sort keys the API accepts in a playground list (fibe-api.md).
var (
	listStatuses = []string{"pending", "creating", "building", "running", "stopped", "stopping", "error", "failed", "destroyed"}
	listSortKeys = []string{"id", "name", "status", "created_at", "updated_at", "expires_at"}
)

// NewCmdList builds `fibe playgrounds list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List playgrounds",
		Long: `List playgrounds, filtered on the server. Filters combine (all must
match) and apply before paging.`,
		Example: `  fibe pg list
  fibe pg list --status running --all
  fibe pg list --playspec web --marquee prod-eu --sort -created_at
  fibe pg list --search preview --created-after 2026-01-31
  fibe pg list --json | jq '.[] | select(.status=="running") | .name'
  fibe pg list --jq '.[].name'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.ListFlags.Validate(cmd); err != nil {
				return err
			}
			if err := opts.FilterFlags.Validate(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddFilterFlags(cmd, &opts.FilterFlags, "playgrounds", listStatuses, listSortKeys)
	cmd.Flags().StringVar(&opts.Playspec, "playspec", "", "Only playgrounds of this playspec (id or name)")
	cmd.Flags().StringVar(&opts.Marquee, "marquee", "", "Only playgrounds on this marquee (id or name)")
	_ = cmd.RegisterFlagCompletionFunc("playspec", cmdutil.CompletePlayspecFlag(f))
	_ = cmd.RegisterFlagCompletionFunc("marquee", cmdutil.CompleteMarqueeFlag(f))
	cmdutil.AddListFlags(cmd, &opts.ListFlags)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage, PlayspecID: opts.Playspec, MarqueeID: opts.Marquee}
	opts.FilterFlags.Apply(&lo)
	var items []client.Playground
	var meta *client.ListMeta
	if opts.All {
		items, err = c.Playgrounds.ListAll(ctx, lo)
	} else {
		items, meta, err = c.Playgrounds.List(ctx, lo)
	}
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.Factory, items, meta, "playgrounds", func(items []client.Playground) error {
		return printTable(opts.Factory.IOStreams, items)
	})
}
