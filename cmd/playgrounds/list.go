package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
)

// ListOptions are the inputs of `fibe playgrounds list`.
type ListOptions struct {
	Factory *cmdutil.Factory
	Status  string
	Name    string
	cmdutil.ListFlags
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
			if err := opts.Validate(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Status, "status", "", "Only playgrounds with this status")
	cmd.Flags().StringVar(&opts.Name, "name", "", "Only playgrounds whose name matches")
	cmdutil.AddListFlags(cmd, &opts.ListFlags)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Factory.Client()
	if err != nil {
		return err
	}
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
	return cmdutil.PrintList(opts.Factory, items, meta, "playgrounds", func(items []client.Playground) error {
		return printTable(opts.Factory.IOStreams, items)
	})
}
