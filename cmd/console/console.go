// Package console is `fibe console`: a local web console over the same
// client as the CLI (docs/console.md).
package console

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/console"
)

// options are the command's inputs.
type options struct {
	cmdutil.Seams
	// serverClient is the Factory's ServerClient (see cmdutil.Factory):
	// with --api-url local, the emulator served on loopback for the
	// console's streams.
	serverClient func(adjust func(*client.Options), wrap func(http.Handler) http.Handler) (*client.Client, func(), error)

	addr loopbackAddr
	open bool

	// poll is the pollers' period (0: the default, 1s; tests go faster).
	poll time.Duration
	// idle is the sessions' idle timeout (0: the default; tests go faster).
	idle time.Duration
	// ready, when set, is called once the console serves (tests).
	ready func(*Running)
}

// Running is a serving console, as tests see it.
type Running struct {
	*console.Server
	// APIURL is the API's base URL (with --api-url local, the emulator's
	// loopback address).
	APIURL string
	// CableConnections counts upgrades the local emulator's /cable answered
	// with 101 (with --api-url local only).
	CableConnections func() int64
	// Client is the console's API client (its breakers, its streams).
	Client *client.Client
}

// NewCmdConsole builds `fibe console`.
func NewCmdConsole(f *cmdutil.Factory) *cobra.Command {
	o := &options{Seams: f.Seams(), serverClient: f.ServerClient}
	cmd := &cobra.Command{
		Use:   "console",
		Short: "Serve the web console on a loopback address",
		Long: `Serve a local web console: playgrounds with live status, actions,
followed logs, a terminal and the preview of each playground. It binds a
loopback address only and prints a URL with a single-use login token.
The API key stays in this process: the browser never sees it.

With --api-url local, the embedded emulator serves each running
playground's preview page too.`,
		Example: `  fibe console
  fibe console --addr 127.0.0.1:8080 --open
  fibe --api-url local console`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), o)
		},
	}
	o.addr = "127.0.0.1:0"
	cmd.Flags().Var(&o.addr, "addr", "Loopback address to listen on (port 0: any free port)")
	cmd.Flags().BoolVar(&o.open, "open", false, "Open the console in the default browser")
	return cmd
}

func run(ctx context.Context, o *options) error {
	cfg, err := o.Config()
	if err != nil {
		return err
	}
	var cables atomic.Int64
	wrap := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/cable" {
				w = &upgradeCounter{ResponseWriter: w, n: &cables}
			}
			h.ServeHTTP(w, r)
		})
	}
	c, stop, err := o.serverClient(func(opts *client.Options) {
		// No progress on the terminal: each action hears its own call's
		// progress (client.MutationOptions.OnEvent) and shows it in its page.
		opts.OnEvent = nil
	}, wrap)
	if err != nil {
		return err
	}
	defer stop()
	label := cfg.APIURL
	if cfg.Local() {
		label = "local emulator"
	}
	s, err := console.New(console.Config{Client: c, Local: cfg.Local(), APILabel: label, PollInterval: o.poll, IdleTimeout: o.idle}, string(o.addr))
	if err != nil {
		return err
	}
	ios := o.IO
	fmt.Fprintf(ios.Out, "Console: %s   (Ctrl-C to stop)\n", s.LoginURL())
	if o.open {
		if err := cmdutil.OpenBrowser(s.LoginURL()); err != nil {
			fmt.Fprintf(ios.ErrOut, "could not open a browser (%v); open the URL above\n", err)
		}
	}
	if o.ready != nil {
		o.ready(&Running{Server: s, APIURL: c.BaseURL().String(), CableConnections: cables.Load, Client: c})
	}
	return s.Serve(ctx)
}

// loopbackAddr is the --addr flag: a bad value is a usage error when the
// flags are parsed, before anything starts.
type loopbackAddr string

func (a *loopbackAddr) String() string { return string(*a) }
func (a *loopbackAddr) Type() string   { return "host:port" }
func (a *loopbackAddr) Set(v string) error {
	if err := console.CheckAddr(v); err != nil {
		return err
	}
	*a = loopbackAddr(v)
	return nil
}

// upgradeCounter counts answers 101 (websocket connections accepted).
type upgradeCounter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (u *upgradeCounter) WriteHeader(code int) {
	if code == http.StatusSwitchingProtocols {
		u.n.Add(1)
	}
	u.ResponseWriter.WriteHeader(code)
}

// Unwrap lets the websocket library reach the connection to hijack it.
func (u *upgradeCounter) Unwrap() http.ResponseWriter { return u.ResponseWriter }
