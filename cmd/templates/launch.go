package templates

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/launch"
	"github.com/fibegg/fibe/internal/output"
)

// LaunchOptions are the inputs of `fibe templates launch`.
type LaunchOptions struct {
	cmdutil.Seams
	Ref      string
	Marquee  string
	Name     string
	Version  int
	Env      []string
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdLaunch builds `fibe templates launch <template> --marquee M`.
func NewCmdLaunch(f *cmdutil.Factory, runF func(context.Context, *LaunchOptions) error) *cobra.Command {
	opts := &LaunchOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "launch <template> --marquee MARQUEE [--name NAME] [--version N] [--env KEY=VALUE]...",
		Short: "Launch a template: a playspec of it, and a playground on a marquee",
		Long: `Launch a template (its latest version, or --version N): a playspec of
it and a playground on the marquee, then wait until the playground runs
(--no-wait returns at once).`,
		Example: `  fibe templates launch nginx-static --marquee prod-eu
  fibe templates launch 17 --marquee 3 --version 2 --name shop --json`,
		Args: cmdutil.ExactArgs(1, "<template>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Marquee == "" {
				return output.FlagErrorf("--marquee is required: the marquee (id or name) to run the playground on")
			}
			if opts.Version < 0 {
				return output.FlagErrorf("--version must be a positive version number")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return launchRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Marquee, "marquee", "", "Marquee (id or name) to run the playground on")
	fl.StringVar(&opts.Name, "name", "", "Name of the playspec and its playground (default: the server picks one)")
	fl.IntVar(&opts.Version, "version", 0, "Version number to launch (default: the latest)")
	fl.StringArrayVar(&opts.Env, "env", nil, "Environment override KEY=VALUE of the playground (repeatable)")
	f.CompleteFlag(cmd, "marquee", cmdutil.CompleteMarqueeFlag(f))
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func launchRun(ctx context.Context, opts *LaunchOptions) error {
	body := map[string]any{}
	if err := launch.AddTarget(body, opts.Marquee, opts.Env); err != nil {
		return err
	}
	if opts.Name != "" {
		body["name"] = opts.Name
	}
	if opts.Version > 0 {
		body["version"] = opts.Version
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	res, resp, err := c.Templates.Launch(ctx, opts.Ref, body, mo)
	if err != nil {
		return err
	}
	return launch.Finish(ctx, opts.Seams, c, resp, res, wo)
}
