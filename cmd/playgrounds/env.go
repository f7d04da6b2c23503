package playgrounds

import (
	"context"
	"slices"
	"sort"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// EnvOptions are the inputs of `fibe playgrounds env`.
type EnvOptions struct {
	cmdutil.Seams
	Ref string
}

// NewCmdEnv builds `fibe playgrounds env <id|name>`.
func NewCmdEnv(f *cmdutil.Factory, runF func(context.Context, *EnvOptions) error) *cobra.Command {
	opts := &EnvOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "env <id|name>",
		Short: "Show the environment a playground's services get",
		Long: `Show the environment a playground's services get: its overrides merged
with the variables the platform sets itself. The platform's variables are
marked "system"; an override cannot change them.`,
		Example: `  fibe pg env preview-42
  fibe pg env preview-42 --jq '.merged.DATABASE_URL'`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return envRun(cmd.Context(), opts)
		},
	}
}

func envRun(ctx context.Context, opts *EnvOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	env, resp, err := c.Playgrounds.EnvMetadata(ctx, opts.Ref)
	if err != nil {
		return err
	}
	return opts.Finish(resp, env, false, func() error { return printEnv(opts.IO, env) })
}

// printEnv prints the merged environment as a table, system keys marked.
func printEnv(ios *iostreams.IOStreams, env *client.EnvMetadata) error {
	if len(env.Merged) == 0 {
		ios.Notice("No environment variables.")
		return nil
	}
	keys := make([]string, 0, len(env.Merged))
	for k := range env.Merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	cs := ios.ColorScheme()
	t := iostreams.NewTable(ios.Out, cs, "KEY", "VALUE", "SOURCE")
	for _, k := range keys {
		source := "override"
		if slices.Contains(env.SystemKeys, k) {
			source = "system"
		}
		t.AddRow(output.SanitizeAll(k, env.Merged[k], source)...)
	}
	return t.Render()
}
