package tricks

import (
	"context"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// The list's statuses, sort keys and outcomes (docs/api.md, Tricks).
var (
	statuses      = []string{"pending", "creating", "building", "running", "completed", "error", "failed", "destroyed"}
	sortKeys      = []string{"created_at", "name"}
	resultFilters = []string{client.TrickSucceeded, client.TrickFailed, client.TrickUnknown}
)

// ListOptions are the inputs of `fibe tricks list`.
type ListOptions struct {
	cmdutil.Seams
	cmdutil.FilterFlags
	cmdutil.ListFlags
	Result   string
	Playspec string
	Marquee  string
}

// NewCmdList builds `fibe tricks list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List tricks",
		Long:    "List tricks (job-mode playgrounds), filtered on the server.",
		Example: `  fibe tricks list
  fibe tricks list --result failed --playspec nightly-tests
  fibe tricks list --jq '.[] | select(.result_status=="failed") | .name'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.ListFlags.Validate(cmd); err != nil {
				return err
			}
			if err := opts.FilterFlags.Validate(opts.IO.Warning); err != nil {
				return err
			}
			if opts.Result != "" && !slices.Contains(resultFilters, opts.Result) {
				return output.FlagErrorf("invalid --result %q: want one of succeeded, failed, unknown", opts.Result)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddFilterFlags(f, cmd, &opts.FilterFlags, "tricks", statuses, sortKeys, 0)
	cmd.Flags().StringVar(&opts.Result, "result", "", "Only tricks with this outcome (succeeded, failed, unknown)")
	cmd.Flags().StringVar(&opts.Playspec, "playspec", "", "Only runs of this playspec (id or name)")
	cmd.Flags().StringVar(&opts.Marquee, "marquee", "", "Only tricks on this marquee (id or name)")
	f.CompleteFlag(cmd, "result", cobra.FixedCompletions(resultFilters, cobra.ShellCompDirectiveNoFileComp))
	f.CompleteFlag(cmd, "playspec", cmdutil.CompletePlayspecFlag(f))
	f.CompleteFlag(cmd, "marquee", cmdutil.CompleteMarqueeFlag(f))
	cmdutil.AddListFlags(cmd, &opts.ListFlags)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage, PlayspecID: opts.Playspec, MarqueeID: opts.Marquee}
	opts.FilterFlags.Apply(&lo)
	if opts.Result != "" {
		lo.Filters = map[string]string{"result_status": opts.Result}
	}
	var items []client.Playground
	var meta *client.ListMeta
	if opts.All {
		items, err = c.Tricks.ListAll(ctx, lo)
	} else {
		items, meta, err = c.Tricks.List(ctx, lo)
	}
	if err != nil {
		return err
	}
	ios := opts.IO
	return cmdutil.PrintList(ios, items, meta, "tricks", func(items []client.Playground) error {
		cs := ios.ColorScheme()
		t := iostreams.NewTable(ios.Out, cs, "ID", "NAME", "STATUS", "OUTCOME", "PLAYSPEC", "CREATED")
		for i := range items {
			p := &items[i]
			t.AddRow(strconv.FormatInt(p.ID, 10), output.Sanitize(p.Name), cs.Status(output.Sanitize(p.Status)),
				cs.Status(client.TrickOutcome(p)), output.Sanitize(refOf(p.PlayspecName, p.PlayspecID)), cmdutil.FormatTime(p.CreatedAt))
		}
		return t.Render()
	})
}
