package props

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// EnvDefaultsOptions are the inputs of `fibe props env-defaults`.
type EnvDefaultsOptions struct {
	cmdutil.Seams
	Ref     string
	Branch  string // "" → the prop's default branch
	EnvFile string
}

// NewCmdEnvDefaults builds `fibe props env-defaults <id|name>`.
func NewCmdEnvDefaults(f *cmdutil.Factory, runF func(context.Context, *EnvDefaultsOptions) error) *cobra.Command {
	opts := &EnvDefaultsOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "env-defaults <id|name> [--branch NAME] [--env-file PATH]",
		Short: "Show the variables an env file of a prop's branch defines",
		Long: `Show the variables an env file of a prop's repository defines on a
branch (the prop's default branch unless --branch is given), as KEY=VALUE
lines.`,
		Example: `  fibe props env-defaults shop
  fibe props env-defaults shop --branch develop --env-file config/.env.sample
  fibe props env-defaults shop --jq .PORT`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: completeProps(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if cmd.Flags().Changed("branch") && strings.TrimSpace(opts.Branch) == "" {
				return output.FlagErrorf("--branch must not be blank")
			}
			if cmd.Flags().Changed("env-file") {
				p := opts.EnvFile
				if p == "" || path.IsAbs(p) || slices.Contains(strings.Split(p, "/"), "..") {
					return output.FlagErrorf("invalid --env-file %q: want a path inside the repository, e.g. .env.example", p)
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return envDefaultsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Branch, "branch", "", "Branch to read (default: the prop's default branch)")
	cmd.Flags().StringVar(&opts.EnvFile, "env-file", "", "Env file to read, relative to the repository (default: the server's, .env.example)")
	return cmd
}

func envDefaultsRun(ctx context.Context, opts *EnvDefaultsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	branch := opts.Branch
	if branch == "" {
		p, _, err := c.Props.Get(ctx, opts.Ref)
		if err != nil {
			return err
		}
		if branch = p.DefaultBranch; branch == "" {
			return output.FlagErrorf("prop %s has no default branch: give --branch", output.Sanitize(opts.Ref))
		}
	}
	defaults, err := c.Props.EnvDefaults(ctx, opts.Ref, branch, opts.EnvFile)
	if err != nil {
		return err
	}
	if defaults == nil {
		defaults = map[string]string{}
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(defaults)
	}
	if len(defaults) == 0 {
		ios.Notice("No variables in the env file of %s on %s.", output.Sanitize(opts.Ref), output.Sanitize(branch))
		return nil
	}
	keys := make([]string, 0, len(defaults))
	for k := range defaults {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(output.Sanitize(k) + "=" + output.Sanitize(defaults[k]) + "\n")
	}
	_, err = ios.Out.Write([]byte(b.String()))
	return err
}
