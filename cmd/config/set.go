package configcmd

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/output"
)

// SetOptions are the inputs of `fibe config set`.
type SetOptions struct {
	cmdutil.Seams
	// Profile is the profile the value is set in.
	Profile func() (string, error)
	Key     string
	Value   string
}

// NewCmdSet builds `fibe config set <key> <value>`.
func NewCmdSet(f *cmdutil.Factory, runF func(context.Context, *SetOptions) error) *cobra.Command {
	opts := &SetOptions{Seams: f.Seams(), Profile: f.Profile}
	return &cobra.Command{
		Use:   "set <key> <value>",
		Short: "Write a setting (an empty value removes it)",
		Example: `  fibe config set api_url http://127.0.0.1:7878
  fibe --profile staging config set api_url https://staging.fibe.gg
  fibe config set timeout 45s`,
		Args:              cmdutil.ArgCount(2, "<key>", "<value>"),
		Annotations:       map[string]string{cmdutil.SkipConfigCheck: "true"},
		ValidArgsFunction: completeFileKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key, opts.Value = args[0], args[1]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return setRun(opts)
		},
	}
}

func setRun(opts *SetOptions) error {
	// Only the profile: the file may hold the bad value this call repairs.
	profile, err := opts.Profile()
	if err != nil {
		return err
	}
	file, err := config.Set(profile, opts.Key, opts.Value)
	if err != nil {
		var inv *config.InvalidError
		if errors.As(err, &inv) {
			return output.FlagErrorWrap(err)
		}
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		s, _ := config.Lookup(opts.Key)
		return ios.PrintJSON(map[string]any{"key": opts.Key, "value": s.Display(opts.Value), "profile": profile, "file": file})
	}
	ios.Notice("Set %s in %s (profile %s).", opts.Key, file, profile)
	return nil
}
