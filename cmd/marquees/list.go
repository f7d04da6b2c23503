package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// ListOptions are the inputs of `fibe marquees list`.
type ListOptions struct {
	Factory *cmdutil.Factory
	cmdutil.FilterFlags
	cmdutil.ListFlags
}

// Statuses and sort keys the API accepts in a marquee list (fibe-api.md).
var (
	listStatuses = []string{"active", "disabled"}
	listSortKeys = []string{"id", "name", "status", "host", "created_at", "updated_at"}
)

// NewCmdList builds `fibe marquees list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List marquees",
		Long: `List marquees, filtered on the server. Filters combine (all must match)
and apply before paging.`,
		Example: `  fibe mq list
  fibe mq list --status active --sort name
  fibe mq list --all --jq '.[] | select(.billing_runtime_active) | .name'`,
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
	cmdutil.AddFilterFlags(cmd, &opts.FilterFlags, "marquees", listStatuses, listSortKeys)
	cmdutil.AddListFlags(cmd, &opts.ListFlags)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage}
	opts.FilterFlags.Apply(&lo)
	var items []client.Marquee
	var meta *client.ListMeta
	if opts.All {
		items, err = c.Marquees.ListAll(ctx, lo)
	} else {
		items, meta, err = c.Marquees.List(ctx, lo)
	}
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.Factory, items, meta, "marquees", func(items []client.Marquee) error {
		return printTable(opts.Factory.IOStreams, items)
	})
}
