package auth

import (
	"bufio"
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// LoginOptions are the inputs of `fibe auth login`.
type LoginOptions struct {
	cmdutil.Seams
	// ClientWithKey builds a client for the key being checked.
	ClientWithKey func(key string) (*client.Client, error)
	WithToken     bool
	// Web logs in through the browser (the device flow) instead of a key.
	Web bool
	// OpenBrowser opens the approval page; nil never opens one.
	OpenBrowser func(url string) error
}

// LoginResult is the JSON form of a successful login.
type LoginResult struct {
	APIURL   string       `json:"api_url"`
	Profile  string       `json:"profile"`
	User     *client.User `json:"user"`
	StoredIn string       `json:"stored_in"`
}

// NewCmdLogin builds `fibe auth login`.
func NewCmdLogin(f *cmdutil.Factory, runF func(context.Context, *LoginOptions) error) *cobra.Command {
	opts := &LoginOptions{Seams: f.Seams(), ClientWithKey: f.ClientWithKey, OpenBrowser: cmdutil.OpenBrowser}
	cmd := &cobra.Command{
		Use:   "login [--with-token | --web]",
		Short: "Store an API key for this profile and API",
		Long: `Store an API key for this profile and API. On a terminal the key is read
from a hidden prompt; with --with-token it is read from stdin. The key is
checked with the API before it is stored, in the OS keyring or, where
there is none, in a file only you can read.

With --web, log in from a browser instead: fibe prints a one-time code and
a URL (and opens it, on a desktop session), you approve the code on the
page, and the platform hands fibe a new key. fibe polls at the interval
the server gives, slower when it is asked to; a denied or expired code
ends with one line and exit 4, and nothing is stored.`,
		Example: `  fibe auth login
  fibe auth login --web
  echo "$FIBE_TOKEN" | fibe auth login --with-token
  fibe --api-url local auth login --with-token < key.txt`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return loginRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.WithToken, "with-token", false, "Read the API key from standard input")
	cmd.Flags().BoolVar(&opts.Web, "web", false, "Log in from a browser: approve a one-time code, get a new key")
	cmd.MarkFlagsMutuallyExclusive("with-token", "web")
	return cmd
}

func loginRun(ctx context.Context, opts *LoginOptions) error {
	ios := opts.IO
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	if opts.Web {
		return webLoginRun(ctx, opts, cfg)
	}
	var token string
	switch {
	case opts.WithToken:
		line, err := bufio.NewReader(io.LimitReader(ios.In, 4096)).ReadString('\n')
		if err != nil && err != io.EOF {
			return output.FlagErrorf("cannot read the key from stdin: %v", err)
		}
		token = strings.TrimSpace(line)
	case ios.CanPrompt():
		if token, err = output.PromptSecret(ctx, ios, "Paste your API key: "); err != nil {
			return err
		}
	default:
		return output.FlagErrorf("--with-token is required when not running interactively")
	}
	if token == "" {
		return output.FlagErrorf("no API key given")
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return output.FlagErrorf("an API key has no spaces")
	}

	return storeKey(ctx, opts, cfg, token)
}

// storeKey checks token with GET /api/me, stores it for the profile and
// API, and says who is logged in.
func storeKey(ctx context.Context, opts *LoginOptions, cfg *config.Config, token string) error {
	ios := opts.IO
	c, err := opts.ClientWithKey(token)
	if err != nil {
		return err
	}
	me, _, err := c.Me(ctx)
	if err != nil {
		return err
	}
	creds, err := config.NewCredentials()
	if err != nil {
		return err
	}
	storedIn, err := creds.Set(cfg.Profile, cfg.APIURL, token)
	if err != nil {
		return err
	}
	if ios.JSON() {
		return ios.PrintJSON(LoginResult{APIURL: cfg.APIURL, Profile: cfg.Profile, User: me, StoredIn: storedIn})
	}
	cs := ios.ColorScheme()
	_, err = io.WriteString(ios.Out, iostreams.Check(cs)+" Logged in to "+cfg.APIURL+" as "+output.Sanitize(who(me))+"\n")
	ios.Notice("Key stored in %s (profile %s).", storedIn, cfg.Profile)
	return err
}

func who(u *client.User) string {
	if u == nil {
		return "unknown user"
	}
	name := u.Username
	if name == "" {
		name = u.Name // older servers
	}
	switch {
	case name != "" && u.Email != "":
		return name + " <" + u.Email + ">"
	case u.Email != "":
		return u.Email
	case name != "":
		return name
	}
	return "unknown user"
}
