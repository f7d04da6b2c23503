package agents

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/resource"
)

// DuplicateOptions are the inputs of `fibe agents duplicate`.
type DuplicateOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
}

// NewCmdDuplicate builds `fibe agents duplicate <id|name>`.
func NewCmdDuplicate(f *cmdutil.Factory, runF func(context.Context, *DuplicateOptions) error) *cobra.Command {
	opts := &DuplicateOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "duplicate <id|name>",
		Aliases: []string{"copy"},
		Short:   "Copy an agent under a new name",
		Long: `Copy an agent: a new agent with the same provider and settings, named
<name>-copy (or -copy-2, ... when that is taken).`,
		Example: `  fibe agents duplicate reviewer`,
		Args:    cmdutil.ExactArgs(1, "<id|name>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return duplicateRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func duplicateRun(ctx context.Context, opts *DuplicateOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	a, resp, err := c.Agents.Duplicate(ctx, opts.Ref, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, a, false, func() error {
		return cmdutil.PrintCard(opts.IO, resource.Agents(), a)
	})
}
