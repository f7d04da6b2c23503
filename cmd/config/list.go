package configcmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
)

// ListOptions are the inputs of `fibe config list`.
type ListOptions struct {
	cmdutil.Seams
}

// NewCmdList builds `fibe config list`.
func NewCmdList(f *cmdutil.Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "Show every setting, its value and where it comes from",
		Example: `  fibe config list
  FIBE_TIMEOUT=1m fibe config list`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *ListOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(cfg.Values())
	}
	cs := ios.ColorScheme()
	t := iostreams.NewTable(ios.Out, cs, "KEY", "VALUE", "SOURCE")
	for _, v := range cfg.Values() {
		t.AddRow(v.Key, v.Value, cs.Gray(v.Source))
	}
	if err := t.Render(); err != nil {
		return err
	}
	ios.Notice("Profile %s (%s); file %s", cfg.Profile, cfg.ProfileSource, cfg.File)
	return nil
}
