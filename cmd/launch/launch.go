// Package launch implements `fibe launch`: a playspec from a compose file
// and, on a marquee, a playground of it, in one call (POST /api/launches).
// Template launches (`fibe templates launch`) finish the same way.
package launch

import (
	"context"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// Options are the inputs of `fibe launch`.
type Options struct {
	cmdutil.Seams
	Compose  string // a file, or - for stdin
	Name     string
	Marquee  string
	Env      []string
	JobMode  bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdLaunch builds `fibe launch`; runF replaces the run function in tests.
func NewCmdLaunch(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "launch --compose FILE|- --name NAME [--marquee MARQUEE] [--env KEY=VALUE]...",
		Short: "Launch a compose file: a playspec, and a playground of it on a marquee",
		Long: `Launch a compose file in one call: it becomes a playspec and, when
--marquee is given, a playground of it on that marquee. The command then
waits until the playground runs (--no-wait returns at once); a playground
that fails instead exits 11 with its step and reasons, as a rollout does.
Each launch creates new resources: a retry of the same call reuses its
idempotency key, so it is replayed rather than launched twice.`,
		Example: `  fibe launch --compose docker-compose.yml --name shop --marquee prod-eu
  cat compose.yml | fibe launch --compose - --name shop --marquee 3 --env DEBUG=1 --no-wait --json
  fibe launch --compose compose.yml --name shop-spec   # the playspec only`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Compose == "" {
				return output.FlagErrorf("--compose is required: a compose file, or - for stdin")
			}
			if opts.Name == "" {
				return output.FlagErrorf("--name is required")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Compose, "compose", "", "Compose file to launch (- for stdin)")
	fl.StringVar(&opts.Name, "name", "", "Name of the playspec and of its playground")
	fl.StringVar(&opts.Marquee, "marquee", "", "Marquee (id or name) to run a playground on; none: the playspec only")
	fl.StringArrayVar(&opts.Env, "env", nil, "Environment override KEY=VALUE of the playground (repeatable)")
	fl.BoolVar(&opts.JobMode, "job-mode", false, "Launch as a job (a trick): its services run to completion")
	f.CompleteFlag(cmd, "marquee", cmdutil.CompleteMarqueeFlag(f))
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func run(ctx context.Context, opts *Options) error {
	compose, err := cmdutil.ReadFileFlag(opts.IO, "--compose", opts.Compose)
	if err != nil {
		return err
	}
	body := map[string]any{"compose_yaml": string(compose), "name": opts.Name}
	if err := AddTarget(body, opts.Marquee, opts.Env); err != nil {
		return err
	}
	if opts.JobMode {
		body["job_mode"] = true
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	res, resp, err := c.Launch.Create(ctx, body, mo)
	if err != nil {
		return err
	}
	return Finish(ctx, opts.Seams, c, resp, res, wo)
}

// AddTarget puts the marquee (an id or a name) and the playground's
// environment overrides into a launch body; a malformed override is a
// usage error.
func AddTarget(body map[string]any, marquee string, env []string) error {
	if marquee != "" {
		body["marquee_id"] = resource.IDOrName(marquee)
	}
	if len(env) > 0 {
		overrides, err := resource.ParseEnv("env", env)
		if err != nil {
			return output.FlagErrorf("invalid --env: %s", err.(*resource.InputError).Problem)
		}
		resource.MergeEnv(body, "env_overrides", overrides)
	}
	return nil
}

// Finish waits, unless wo says not to, until the launched playground runs,
// and prints the launch: the result as JSON, or a line for each thing
// created.
func Finish(ctx context.Context, s cmdutil.Seams, c *client.Client, resp *client.Response, res *client.LaunchResult, wo client.WaitOptions) error {
	s.ReplayNotice(resp)
	status := ""
	if res.PlaygroundID != 0 && !wo.NoWait {
		ref := strconv.FormatInt(res.PlaygroundID, 10)
		stop := s.Progress("Waiting for playground "+ref+" to be running", wo)
		st, err := c.Playgrounds.Wait(ctx, ref, "running", wo)
		stop(err)
		if err != nil {
			return s.WaitFailed(err)
		}
		status = st.Status
	}
	ios := s.IO
	if ios.JSON() {
		return ios.PrintJSON(res)
	}
	check := iostreams.Check(ios.ColorScheme())
	if _, err := fmt.Fprintf(ios.Out, "%s Launched playspec %d\n", check, res.PlayspecID); err != nil {
		return err
	}
	if res.PlaygroundID == 0 {
		return nil
	}
	line := fmt.Sprintf("%s Playground %d", check, res.PlaygroundID)
	if status != "" {
		line += " is " + output.Sanitize(status)
	} else {
		line += " created; follow it with: " + output.Sanitize(s.CommandLine("pg", "wait", strconv.FormatInt(res.PlaygroundID, 10)))
	}
	_, err := fmt.Fprintln(ios.Out, line)
	return err
}
