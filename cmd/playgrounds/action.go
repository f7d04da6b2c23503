package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// actionExamples are the command line's own examples of the playground
// actions; what each action is and does comes from its description.
var actionExamples = map[string]string{
	"rollout": `  fibe pg rollout preview-42
  fibe pg rollout preview-42 --no-wait --json | jq -r .request_id
  fibe pg rollout preview-42 --force --wait-timeout 15m`,
	"restart": `  fibe pg restart preview-42 --idempotency-key "ci-$CI_JOB_ID-restart"`,
	"stop":    `  fibe pg stop preview-42`,
	"start":   `  fibe pg start preview-42 --wait-timeout 10m`,
}

// newCmdActions builds one command per action of the playground's
// description (rollout, restart, stop, start).
func newCmdActions(f *cmdutil.Factory) []*cobra.Command {
	var cmds []*cobra.Command
	for _, a := range resource.Playgrounds().Actions {
		cmds = append(cmds, NewCmdAction(f, a, nil))
	}
	return cmds
}

// ActionOptions are the inputs of the action commands.
type ActionOptions struct {
	cmdutil.Seams
	Ref      string
	Action   resource.Action
	Force    bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdAction builds the command of one action.
func NewCmdAction(f *cmdutil.Factory, a resource.Action, runF func(context.Context, *ActionOptions) error) *cobra.Command {
	opts := &ActionOptions{Seams: f.Seams(), Action: a}
	cmd := &cobra.Command{
		Use:   a.Name + " <id|name>",
		Short: a.Help,
		Long: a.Help + `.

The command waits for the operation with a spinner and prints the final
status. With --no-wait it prints the operation's handle instead; resume
with ` + "`fibe ops wait <request-id>`.",
		Example:           actionExamples[a.Name],
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return actionRun(cmd.Context(), opts)
		},
	}
	if a.Force {
		cmd.Flags().BoolVar(&opts.Force, "force", false, "Force the operation")
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func actionRun(ctx context.Context, opts *ActionOptions) error {
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress(opts.Action.Progress+" "+opts.Ref, wo)
	res, resp, err := resource.Playgrounds().Run(ctx, c, opts.Ref, opts.Action, opts.Force, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	st, _ := res.(*client.PlaygroundStatus)
	return opts.Finish(resp, st, st == nil, func() error { return printStatus(opts.IO, st) })
}
