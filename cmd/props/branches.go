package props

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// BranchesOptions are the inputs of `fibe props branches`.
type BranchesOptions struct {
	cmdutil.Seams
	Ref   string
	Query string
	Limit int
}

// maxBranches bounds --limit.
const maxBranches = 1000

// NewCmdBranches builds `fibe props branches <id|name>`.
func NewCmdBranches(f *cmdutil.Factory, runF func(context.Context, *BranchesOptions) error) *cobra.Command {
	opts := &BranchesOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "branches <id|name> [--query TEXT] [--limit N]",
		Short: "List the branches of a prop's repository",
		Long: `List the branches of a prop's repository, the default one marked. A
repository not synced yet may have none.`,
		Example: `  fibe props branches shop
  fibe props branches shop --query feat --limit 10
  fibe props branches shop --jq '.[] | select(.default) | .name'`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: completeProps(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if cmd.Flags().Changed("limit") && (opts.Limit < 1 || opts.Limit > maxBranches) {
				return output.FlagErrorf("--limit must be between 1 and %d", maxBranches)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return branchesRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Query, "query", "", "Only branches whose name contains this text")
	cmd.Flags().IntVar(&opts.Limit, "limit", 0, "At most this many branches (default: the server's)")
	return cmd
}

func branchesRun(ctx context.Context, opts *BranchesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	branches, err := c.Props.Branches(ctx, opts.Ref, opts.Query, opts.Limit)
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.IO, branches, nil, "branches", func(items []client.PropBranch) error {
		cs := opts.IO.ColorScheme()
		t := iostreams.NewTable(opts.IO.Out, cs, "NAME", "DEFAULT", "COMMIT")
		for _, b := range items {
			def := ""
			if b.Default {
				def = "yes"
			}
			t.AddRow(output.Sanitize(b.Name), def, output.Sanitize(shortSHA(b.LastCommitSHA)))
		}
		return t.Render()
	})
}

func shortSHA(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}
