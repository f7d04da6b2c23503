package props

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// AttachOptions are the inputs of `fibe props attach`.
type AttachOptions struct {
	cmdutil.Seams
	Repo     string // owner/repo
	Mutation cmdutil.MutationFlags
}

// NewCmdAttach builds `fibe props attach <owner/repo>`.
func NewCmdAttach(f *cmdutil.Factory, runF func(context.Context, *AttachOptions) error) *cobra.Command {
	opts := &AttachOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "attach <owner/repo>",
		Short: "Link a repository of your connected GitHub account as a prop",
		Long: `Link a repository of your connected GitHub account as a prop, by its
full name. Fibe must be able to push to it: for someone else's repository,
fork it first or use "fibe props mirror".`,
		Example: `  fibe props attach acme/shop
  fibe props attach acme/shop --json`,
		Args: cmdutil.ExactArgs(1, "<owner/repo>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo = strings.TrimSpace(args[0])
			if err := validFullName(opts.Repo); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return attachRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

// validFullName checks an owner/repo argument locally (exit 2).
func validFullName(s string) error {
	owner, name, ok := strings.Cut(s, "/")
	if !ok || owner == "" || name == "" || strings.ContainsAny(s, " \t:@") || strings.Count(s, "/") != 1 {
		return output.FlagErrorf("invalid repository %q: want owner/repo, e.g. acme/shop", s)
	}
	return nil
}

func attachRun(ctx context.Context, opts *AttachOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	p, resp, err := c.Props.Attach(ctx, opts.Repo, mo, client.WaitOptions{})
	if err != nil {
		return err
	}
	return opts.Finish(resp, p, false, func() error { return printProp(opts.IO, p) })
}
