package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// ListOptions are the inputs of `fibe playgrounds list`.
type ListOptions struct {
	Factory *cmdutil.Factory
	Status  string
	Name    string
	Page    int
	PerPage int
	All     bool
}

// NewCmdList builds `fibe playgrounds list`; runF replaces the run function in tests.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Factory: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List playgrounds",
		Example: `  fibe pg list
  fibe pg list --status running --all
  fibe pg list --json | jq '.[] | select(.status=="running") | .name'
  fibe pg list --jq '.[].name'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Page < 0 || opts.PerPage < 0 {
				return output.FlagErrorf("--page and --per-page must be positive")
			}
			if opts.All && cmd.Flags().Changed("page") {
				return output.FlagErrorf("--all and --page cannot be used together")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Status, "status", "", "Only playgrounds with this status")
	cmd.Flags().StringVar(&opts.Name, "name", "", "Only playgrounds whose name matches")
	cmd.Flags().IntVar(&opts.Page, "page", 0, "Page to show (default 1)")
	cmd.Flags().IntVar(&opts.PerPage, "per-page", 0, "Items per page (default: the server's)")
	cmd.Flags().BoolVar(&opts.All, "all", false, "Fetch every page")
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
	ios := opts.Factory.IOStreams
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage, Status: opts.Status, Name: opts.Name}
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
	if items == nil {
		items = []client.Playground{} // an empty list is [], never null
	}
	if ios.JSON() {
		return ios.PrintJSON(items)
	}
	if len(items) == 0 {
		ios.Notice("No playgrounds.")
		return nil
	}
	if err := printTable(ios, items); err != nil {
		return err
	}
	if meta != nil && meta.Total > len(items) {
		ios.Notice("Showing %d of %d (page %d); use --page or --all for more.", len(items), meta.Total, max(meta.Page, 1))
	}
	return nil
}
