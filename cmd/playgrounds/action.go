package playgrounds

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// actionSpec describes one playground operation command.
type actionSpec struct {
	use      string // command name
	action   string // action_type on the wire
	short    string
	progress string // spinner label verb
	force    bool   // accepts --force
	example  string
}

var (
	actionRollout = actionSpec{use: "rollout", action: "rollout", short: "Roll out a playground (build and deploy)",
		progress: "Rolling out", force: true, example: `  fibe pg rollout preview-42
  fibe pg rollout preview-42 --no-wait --json | jq -r .request_id
  fibe pg rollout preview-42 --force --wait-timeout 15m`}
	actionRestart = actionSpec{use: "restart", action: "hard_restart", short: "Restart a playground's services",
		progress: "Restarting", example: `  fibe pg restart preview-42 --idempotency-key "ci-$CI_JOB_ID-restart"`}
	actionStop = actionSpec{use: "stop", action: "stop", short: "Stop a playground", progress: "Stopping",
		example: `  fibe pg stop preview-42`}
	actionStart = actionSpec{use: "start", action: "start", short: "Start a stopped playground", progress: "Starting",
		example: `  fibe pg start preview-42 --wait-timeout 10m`}
)

// ActionOptions are the inputs of the operation commands.
type ActionOptions struct {
	Factory  *cmdutil.Factory
	Ref      string
	Action   string
	Force    bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
	label    string
}

// NewCmdAction builds one of rollout, restart, stop, start.
func NewCmdAction(f *cmdutil.Factory, spec actionSpec, runF func(context.Context, *ActionOptions) error) *cobra.Command {
	opts := &ActionOptions{Factory: f, Action: spec.action, label: spec.progress}
	cmd := &cobra.Command{
		Use:   spec.use + " <id|name>",
		Short: spec.short,
		Long: spec.short + `.

The command waits for the operation with a spinner and prints the final
status. With --no-wait it prints the operation's handle instead; resume
with ` + "`fibe ops wait <request-id>`.",
		Example:           spec.example,
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
	if spec.force {
		cmd.Flags().BoolVar(&opts.Force, "force", false, "Force the operation")
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func actionRun(ctx context.Context, opts *ActionOptions) error {
	f := opts.Factory
	mo, wo, c, err := cmdutil.Prepare(f, &opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, opts.label+" "+opts.Ref, wo)
	st, resp, err := c.Playgrounds.Action(ctx, opts.Ref, opts.Action, opts.Force, mo, wo)
	stop(err)
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	return cmdutil.Finish(f, resp, st, st == nil, func() error { return printStatus(f.IOStreams, st) })
}
