package auth

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
)

// LogoutOptions are the inputs of `fibe auth logout`.
type LogoutOptions struct {
	cmdutil.Seams
}

// NewCmdLogout builds `fibe auth logout`.
func NewCmdLogout(f *cmdutil.Factory, runF func(context.Context, *LogoutOptions) error) *cobra.Command {
	opts := &LogoutOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "logout",
		Short: "Forget the stored API key of this profile and API",
		Example: `  fibe auth logout
  fibe --profile staging auth logout`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return logoutRun(cmd.Context(), opts)
		},
	}
}

func logoutRun(_ context.Context, opts *LogoutOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	creds, err := config.NewCredentials()
	if err != nil {
		return err
	}
	found, err := creds.Delete(cfg.Profile, cfg.APIURL)
	if err != nil {
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(map[string]any{"logged_out": found, "api_url": cfg.APIURL, "profile": cfg.Profile})
	}
	if !found {
		ios.Notice("No stored key for %s (profile %s).", cfg.APIURL, cfg.Profile)
		return nil
	}
	_, err = io.WriteString(ios.Out, iostreams.Check(ios.ColorScheme())+" Logged out of "+cfg.APIURL+" (profile "+cfg.Profile+")\n")
	return err
}
