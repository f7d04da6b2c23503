package auth

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// StatusOptions are the inputs of `fibe auth status`.
type StatusOptions struct {
	cmdutil.Seams
	// APIKey finds the key and says where it comes from.
	APIKey func() (key, source string, err error)
}

// StatusResult is the JSON form of `fibe auth status`. The token is masked.
// Scopes are what the key may do (api_key_scopes of GET /api/me).
type StatusResult struct {
	APIURL      string       `json:"api_url"`
	Profile     string       `json:"profile"`
	User        *client.User `json:"user"`
	Scopes      []string     `json:"scopes"`
	Token       string       `json:"token"`
	TokenSource string       `json:"token_source"`
}

// NewCmdStatus builds `fibe auth status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Seams: f.Seams(), APIKey: f.APIKey}
	return &cobra.Command{
		Use:   "status",
		Short: "Show who you are, what your key may do, on which API, and where the key comes from",
		Example: `  fibe auth status
  fibe --profile staging auth status --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return statusRun(cmd.Context(), opts)
		},
	}
}

func statusRun(ctx context.Context, opts *StatusOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	key, source, err := opts.APIKey()
	if err != nil {
		return err
	}
	if key == "" {
		return &output.AuthRequiredError{APIURL: cfg.APIURL, Profile: cfg.Profile}
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	me, _, err := c.Me(ctx)
	if err != nil {
		return err
	}
	scopes := me.APIKeyScopes
	if scopes == nil {
		scopes = []string{}
	}
	res := StatusResult{APIURL: cfg.APIURL, Profile: cfg.Profile, User: me, Scopes: scopes, Token: config.MaskToken(key), TokenSource: source}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(res)
	}
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	d.Add("API", res.APIURL)
	d.Add("Profile", res.Profile)
	d.Add("Logged in as", output.Sanitize(who(me)))
	if len(scopes) > 0 {
		d.Add("Scopes", output.Sanitize(strings.Join(scopes, ", ")))
	} else {
		d.Add("Scopes", "(the server did not say)")
	}
	d.Add("Token", res.Token)
	d.Add("Token source", res.TokenSource)
	return d.Render()
}
