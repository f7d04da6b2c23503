package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/mcpinstall"
	"github.com/fibegg/fibe/internal/output"
)

// InstallOptions are the inputs of `fibe mcp install` and `uninstall`.
type InstallOptions struct {
	// Seams: IO and Config are used; Client and Command below hide the
	// seams' client constructor and command line, which install needs not.
	cmdutil.Seams
	Client string
	Scope  string
	Print  bool
	// Env describes the machine (tests set Home and Dir).
	Env mcpinstall.Env
	// Command is the program clients run (default: this executable).
	Command string
}

func addClientFlags(f *cmdutil.Factory, cmd *cobra.Command, opts *InstallOptions) {
	cmd.Flags().StringVar(&opts.Client, "client", "", "MCP client: "+strings.Join(mcpinstall.Clients, ", "))
	cmd.Flags().StringVar(&opts.Scope, "scope", "", "project (files in this directory) or user (default: project where the client has one)")
	f.CompleteFlag(cmd, "client", cobra.FixedCompletions(mcpinstall.Clients, cobra.ShellCompDirectiveNoFileComp))
	f.CompleteFlag(cmd, "scope", cobra.FixedCompletions([]string{"project", "user"}, cobra.ShellCompDirectiveNoFileComp))
}

// NewCmdInstall builds `fibe mcp install`.
func NewCmdInstall(f *cmdutil.Factory, runF func(context.Context, *InstallOptions) error) *cobra.Command {
	opts := &InstallOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "install --client NAME [--scope project|user] [--print]",
		Short: "Add fibe's MCP server to an MCP client's configuration",
		Long: `Add fibe's MCP server to an MCP client's own configuration file, keeping
everything else in it (after a backup next to it, *.bak). Running it twice
changes nothing the second time. --print only prints the entry.

  claude-code     .mcp.json (project) or ~/.claude.json (user), "mcpServers"
  claude-desktop  claude_desktop_config.json (macOS and Windows), "mcpServers"
  cursor          .cursor/mcp.json (project) or ~/.cursor/mcp.json (user), "mcpServers"
  vscode          .vscode/mcp.json (project) or the user profile's mcp.json, "servers"
  codex           ~/.codex/config.toml (or $CODEX_HOME), [mcp_servers.fibe]

The entry runs this fibe with "mcp serve" and the --api-url, --profile and
--state-store given here; the state store without its password, which the
server takes from FIBE_STATE_STORE in the client's environment when that
names the same store. The API key is never written: the server finds it as
every fibe command does (fibe auth login, or FIBE_API_KEY in the client's
environment).`,
		Example: `  fibe mcp install --client claude-code
  fibe --api-url local mcp install --client cursor --scope user
  fibe mcp install --client codex --print`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.complete(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return installRun(opts)
		},
	}
	addClientFlags(f, cmd, opts)
	cmd.Flags().BoolVar(&opts.Print, "print", false, "Print the entry instead of writing it")
	return cmd
}

// NewCmdUninstall builds `fibe mcp uninstall`.
func NewCmdUninstall(f *cmdutil.Factory, runF func(context.Context, *InstallOptions) error) *cobra.Command {
	opts := &InstallOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "uninstall --client NAME [--scope project|user]",
		Short:   "Remove fibe's MCP server from an MCP client's configuration",
		Long:    "Remove fibe's entry from an MCP client's configuration file, and nothing else (after a backup).",
		Example: `  fibe mcp uninstall --client claude-code`,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.complete(); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return uninstallRun(opts)
		},
	}
	addClientFlags(f, cmd, opts)
	return cmd
}

// complete checks the flags and fills in the machine.
func (o *InstallOptions) complete() error {
	if o.Client == "" {
		return output.FlagErrorf("--client is required: one of %s", strings.Join(mcpinstall.Clients, ", "))
	}
	if o.Env.GOOS == "" {
		o.Env.GOOS = runtime.GOOS
	}
	if o.Env.Getenv == nil {
		o.Env.Getenv = os.Getenv
	}
	if o.Env.Home == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		o.Env.Home = home
	}
	if o.Env.Dir == "" {
		dir, err := os.Getwd()
		if err != nil {
			return err
		}
		o.Env.Dir = dir
	}
	return nil
}

func (o *InstallOptions) target() (mcpinstall.Target, error) {
	t, err := mcpinstall.Locate(o.Client, o.Scope, o.Env)
	var ue *mcpinstall.UsageError
	if errors.As(err, &ue) {
		return t, output.FlagErrorf("%v", err)
	}
	return t, err
}

// entry is what the client runs: this fibe, the chosen API and profile.
func (o *InstallOptions) entry() (mcpinstall.Entry, error) {
	cmd := o.Command
	if cmd == "" {
		exe, err := os.Executable()
		if err != nil {
			return mcpinstall.Entry{}, err
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
		cmd = exe
	}
	var args []string
	cfg, err := o.Config()
	if err != nil {
		return mcpinstall.Entry{}, err
	}
	if cfg.APIURL != config.DefaultAPIURL {
		args = append(args, "--api-url", cfg.APIURL)
	}
	if cfg.Profile != "" && cfg.Profile != config.DefaultProfile {
		args = append(args, "--profile", cfg.Profile)
	}
	if cfg.StateStore != "" {
		// Without its password: the server takes that from FIBE_STATE_STORE.
		args = append(args, "--state-store", withoutPassword(cfg.StateStore))
	}
	args = append(args, "mcp", "serve")
	return mcpinstall.Entry{Command: cmd, Args: args}, nil
}

// withoutPassword is a state store URL with the password taken out (the
// user stays).
func withoutPassword(store string) string {
	u, err := url.Parse(store)
	if err != nil || u.User == nil {
		return store
	}
	if _, has := u.User.Password(); has {
		u.User = url.User(u.User.Username())
	}
	return u.String()
}

func installRun(o *InstallOptions) error {
	t, err := o.target()
	if err != nil {
		return err
	}
	e, err := o.entry()
	if err != nil {
		return err
	}
	ios := o.IO
	if o.Print {
		snippet, err := mcpinstall.Snippet(t, e)
		if err != nil {
			return err
		}
		ios.Notice("Add this to %s:", t.Path)
		_, err = ios.Out.Write(snippet)
		return err
	}
	res, err := mcpinstall.Install(t, e)
	if err != nil {
		return err
	}
	return report(o, res, "installed")
}

func uninstallRun(o *InstallOptions) error {
	t, err := o.target()
	if err != nil {
		return err
	}
	res, err := mcpinstall.Uninstall(t)
	if err != nil {
		return err
	}
	return report(o, res, "uninstalled")
}

func report(o *InstallOptions, res mcpinstall.Result, what string) error {
	ios := o.IO
	if ios.JSON() {
		return ios.PrintJSON(map[string]any{"client": o.Client, "file": res.Path, "changed": res.Changed, "backup": res.Backup, "action": what})
	}
	var msg string
	switch {
	case !res.Changed && what == "installed":
		msg = fmt.Sprintf("Already installed for %s in %s; nothing changed.", o.Client, res.Path)
	case !res.Changed:
		msg = fmt.Sprintf("Not installed for %s in %s; nothing changed.", o.Client, res.Path)
	case what == "installed":
		msg = fmt.Sprintf("Installed fibe for %s in %s.", o.Client, res.Path)
	default:
		msg = fmt.Sprintf("Removed fibe for %s from %s.", o.Client, res.Path)
	}
	if res.Backup != "" {
		msg += " Backup: " + res.Backup
	}
	_, err := fmt.Fprintln(ios.Out, msg)
	return err
}
