package tricks

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// RunOptions are the inputs of `fibe tricks run`.
type RunOptions struct {
	cmdutil.Seams
	Playspec string
	Marquee  string
	Name     string
	Env      []string
	Only     []string
	Except   []string
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdRun builds `fibe tricks run --playspec ID|NAME`.
func NewCmdRun(f *cmdutil.Factory, runF func(context.Context, *RunOptions) error) *cobra.Command {
	opts := &RunOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "run --playspec ID|NAME [--marquee ID|NAME] [--name NAME] [--env K=V ...]",
		Short: "Run a job and wait for its outcome",
		Long: `Start a trick from a job-mode playspec and wait until its job has run.

The exit code is the job's outcome: 0 when it succeeded; 11 (JOB_FAILED)
when it failed, with the failed services, their exit codes and reasons; 11
(PLAYGROUND_TERMINAL_STATE) when the playground failed before its job ran.
Without --name the run is named after the playspec and 8 random hex
digits. --no-wait prints the trick as started and exits 0.`,
		Example: `  fibe tricks run --playspec nightly-tests
  fibe tricks run --playspec nightly-tests --marquee prod-eu --env SUITE=smoke
  fibe tricks run --playspec nightly-tests --no-wait --json | jq -r .name`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Playspec == "" {
				return output.FlagErrorf("--playspec is required")
			}
			if len(opts.Only) > 0 && len(opts.Except) > 0 {
				return output.FlagErrorf("--only and --except cannot be used together")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Playspec, "playspec", "", "Job playspec id or name (required)")
	cmd.Flags().StringVar(&opts.Marquee, "marquee", "", "Marquee id or name (default: the account's default marquee)")
	cmd.Flags().StringVar(&opts.Name, "name", "", "Name of the run (default: <playspec>-<8 hex digits>)")
	cmd.Flags().StringArrayVar(&opts.Env, "env", nil, "Environment override KEY=VALUE (repeatable)")
	cmd.Flags().StringSliceVar(&opts.Only, "only", nil, "Run only these services (comma-separated or repeated)")
	cmd.Flags().StringSliceVar(&opts.Except, "except", nil, "Run every service but these")
	f.CompleteFlag(cmd, "playspec", cmdutil.CompletePlayspecFlag(f))
	f.CompleteFlag(cmd, "marquee", cmdutil.CompleteMarqueeFlag(f))
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// body is the trigger's "playground" object; a malformed --env is a usage
// error and nothing is sent.
func (opts *RunOptions) body() (map[string]any, error) {
	body := map[string]any{"playspec_id": resource.IDOrName(opts.Playspec)}
	if opts.Marquee != "" {
		body["marquee_id"] = resource.IDOrName(opts.Marquee)
	}
	if opts.Name != "" {
		body["name"] = opts.Name
	}
	env, err := resource.ParseEnv("env", opts.Env)
	if err != nil {
		var ie *resource.InputError
		if errors.As(err, &ie) {
			return nil, output.FlagErrorf("invalid --%s", ie.Error())
		}
		return nil, err
	}
	resource.MergeEnv(body, "env_overrides", env)
	if len(opts.Only) > 0 {
		body["only_services"] = opts.Only
	}
	if len(opts.Except) > 0 {
		body["except_services"] = opts.Except
	}
	return body, nil
}

func runRun(ctx context.Context, opts *RunOptions) error {
	body, err := opts.body()
	if err != nil {
		return err
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Starting a run of "+opts.Playspec, wo)
	p, resp, err := c.Tricks.Trigger(ctx, body, mo, wo)
	stop(err)
	if err != nil {
		return trickFailed(opts.Seams, err)
	}
	if p == nil {
		// A 202 not waited on: the handle is all there is.
		return opts.Finish(resp, nil, true, nil)
	}
	if opts.Wait.NoWait {
		return opts.Finish(resp, p, false, func() error {
			if err := printTrick(opts.IO, p); err != nil {
				return err
			}
			opts.IO.Notice("Follow it with: %s", output.Sanitize(opts.CommandLine("tricks", "status", p.Name)))
			return nil
		})
	}
	opts.ReplayNotice(resp)
	return waitRun(ctx, opts.Seams, c, p.Name, wo)
}

// waitRun waits for the run name to finish and prints its status; a job
// that failed is the command's error (exit 11).
func waitRun(ctx context.Context, s cmdutil.Seams, c *client.Client, name string, wo client.WaitOptions) error {
	stop := s.Progress("Running "+name, wo)
	st, err := c.Tricks.Wait(ctx, name, wo)
	stop(err)
	if err != nil {
		return trickFailed(s, err) // stdout stays empty; the error's details name what failed
	}
	if s.IO.JSON() {
		return s.IO.PrintJSON(st)
	}
	return printTrickStatus(s.IO, st)
}

// trickFailed is the error of a trick's start or wait: the hint under a
// failure names `fibe tricks status`, the trick's own status command.
func trickFailed(s cmdutil.Seams, err error) error {
	return output.WithStatusCommand(s.WaitFailed(err), "tricks")
}
