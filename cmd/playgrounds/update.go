package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/present"
)

// UpdateOptions are the inputs of `fibe playgrounds update`.
type UpdateOptions struct {
	Factory  *cmdutil.Factory
	Ref      string
	Name     string
	Env      []string
	File     string
	Mutation cmdutil.MutationFlags
}

// NewCmdUpdate builds `fibe playgrounds update <id|name>`.
func NewCmdUpdate(f *cmdutil.Factory, runF func(context.Context, *UpdateOptions) error) *cobra.Command {
	opts := &UpdateOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "update <id|name> [--name NEW] [--env K=V ...] [-f payload.json|-]",
		Short: "Change a playground",
		Example: `  fibe pg update preview-42 --env FEATURE_X=on
  fibe pg update preview-42 --name preview-42b`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return updateRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "New name")
	cmd.Flags().StringArrayVar(&opts.Env, "env", nil, "Environment override KEY=VALUE (repeatable)")
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "JSON payload file, or - for stdin")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

// updatePayload is what a -f payload of `pg update` holds.
var updatePayload = cmdutil.PayloadSchema{
	Wrapper: "playground",
	Fields:  []string{"name", "env_overrides"},
	Aliases: map[string]string{"env": "env_overrides"},
}

func updateRun(ctx context.Context, opts *UpdateOptions) error {
	f := opts.Factory
	body := map[string]any{}
	if opts.File != "" {
		var err error
		if body, err = cmdutil.ReadPayloadFor(f, opts.File, updatePayload); err != nil {
			return err
		}
	}
	if opts.Name != "" {
		body["name"] = opts.Name
	}
	env, err := cmdutil.ParseEnv(opts.Env)
	if err != nil {
		return err
	}
	cmdutil.MergeEnv(body, "env_overrides", env)
	if len(body) == 0 {
		return present.FlagErrorf("nothing to change: give --name, --env or -f")
	}
	mo, _, c, err := cmdutil.Prepare(f, &opts.Mutation, nil)
	if err != nil {
		return err
	}
	p, resp, err := c.Playgrounds.Update(ctx, opts.Ref, body, mo)
	if err != nil {
		return err
	}
	return cmdutil.Finish(f, resp, p, false, func() error { return printPlayground(f.IOStreams, p) })
}
