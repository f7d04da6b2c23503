package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/mcpserver"
	"github.com/fibegg/fibe/internal/output"
)

// ServeOptions are the inputs of `fibe mcp serve`.
type ServeOptions struct {
	cmdutil.Seams
	// CallClients and LocalStreamClient are the Factory's (see
	// cmdutil.Factory): a client per call, and the emulator on loopback
	// for live logs with --api-url local.
	CallClients       func() (func(onEvent func(client.Event), requireKey bool) (*client.Client, error), error)
	LocalStreamClient func() (*client.Client, func(), error)
	HTTP              string // listen address; "" → stdio
	AllowRemote       bool
	Token             string
	Yes               bool
	// Stdin and Stdout carry the stdio protocol (default: the process's).
	Stdin  io.ReadCloser
	Stdout io.WriteCloser
	// Ready, when set, receives the URL once the HTTP server listens (tests).
	Ready func(url string)
}

// NewCmdServe builds `fibe mcp serve`.
func NewCmdServe(f *cmdutil.Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{Seams: f.Seams(), CallClients: f.CallClients, LocalStreamClient: f.LocalStreamClient}
	cmd := &cobra.Command{
		Use:   "serve [--http ADDR [--token T] [--allow-remote]] [--yes]",
		Short: "Run the MCP server (stdio, or streamable HTTP with --http)",
		Long: `Run the MCP server. By default it speaks over stdin and stdout, which is
how MCP clients launch it: stdout carries only protocol frames, logs go to
stderr, and the server exits 0 when stdin closes.

With --http ADDR it serves streamable HTTP on ADDR (loopback only unless
--allow-remote). Every request needs "Authorization: Bearer <token>": the
token is printed once at start, or set with --token or FIBE_MCP_TOKEN.
Requests whose Host is not a loopback name ("localhost" or a loopback IP,
never decided by a DNS lookup), or whose Origin is not the server's own
(or one given with --allow-origin), are refused.

Global flags apply: "fibe --api-url local mcp serve" serves the embedded
emulator, --profile picks credentials. Destructive tools (_delete, _stop)
and fibe_api requests that change something ask the user (MCP
elicitation) when the client can, else need "confirm": true in their
arguments; --yes skips both.

A call that waits answers within --call-budget (default 50s; a call's own
call_budget wins): work still pending then is a hand-off handle whose
"resume" names the tool that picks it up. --tools full lists every tool
the server has (docs/mcp-tools.md).`,
		Example: `  fibe mcp serve
  fibe --api-url local mcp serve
  fibe mcp serve --http 127.0.0.1:7879`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.HTTP == "" && (opts.AllowRemote || opts.Token != "") {
				return output.FlagErrorf("--token and --allow-remote need --http")
			}
			if opts.HTTP != "" {
				host, _, err := net.SplitHostPort(opts.HTTP)
				if err != nil {
					return output.FlagErrorf("invalid --http %q: want HOST:PORT", opts.HTTP)
				}
				if !opts.AllowRemote && !client.IsLoopbackHost(host) {
					return output.FlagErrorf("--http %s is not a loopback address: add --allow-remote to serve other machines", opts.HTTP)
				}
				cfg, err := opts.Config() // --token, else FIBE_MCP_TOKEN (setting mcp_token)
				if err != nil {
					return err
				}
				opts.Token = cfg.MCPToken
				f.WarnSecretFlags()
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return serveRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.HTTP, "http", "", "Serve streamable HTTP on this address (e.g. 127.0.0.1:7879) instead of stdio")
	cmd.Flags().BoolVar(&opts.AllowRemote, "allow-remote", false, "Allow --http on a non-loopback address and any Host header")
	cmd.Flags().StringVar(&opts.Token, "token", "", "Bearer token HTTP clients must send (env FIBE_MCP_TOKEN; default: a random one, printed)")
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Let destructive tools run without asking or \"confirm\": true")
	config.BindFlag(cmd.Flags(), "mcp_token")
	config.AddFlags(cmd.Flags(), "mcp_call_budget", "mcp_tools", "mcp_allow_origins")
	return cmd
}

// newServer builds the MCP server over the factory's client.
func newServer(opts *ServeOptions) (*mcp.Server, error) {
	clients, err := opts.CallClients()
	if err != nil {
		return nil, err
	}
	cfg, err := opts.Config()
	if err != nil {
		return nil, err
	}
	sc := mcpserver.Config{
		Client:     mcpserver.ClientFunc(clients),
		Yes:        opts.Yes,
		CallBudget: cfg.MCPCallBudget,
		Tools:      cfg.MCPTools,
		// A subscribed playground is looked at every poll_interval.
		ResourcePoll: cfg.PollInterval,
		Log:          opts.IO.ErrOut,
	}
	if cfg.Local() {
		// Live logs need a websocket: serve the emulator on a loopback socket.
		sc.StreamClient = opts.LocalStreamClient
	}
	return mcpserver.New(sc), nil
}

func serveRun(ctx context.Context, opts *ServeOptions) error {
	s, err := newServer(opts)
	if err != nil {
		return err
	}
	if opts.HTTP != "" {
		return serveHTTP(ctx, s, opts)
	}
	in, out := opts.Stdin, opts.Stdout
	if in == nil && opts.IO.IsStdinTTY() {
		opts.IO.Notice("Serving MCP on stdin and stdout: MCP clients start this themselves (see fibe mcp install). Ctrl-D stops it.")
	}
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	err = s.Run(ctx, mcpserver.StdioTransport(in, out))
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // stdin closed, or interrupted: a clean end
	}
	return err
}

func serveHTTP(ctx context.Context, s *mcp.Server, opts *ServeOptions) error {
	ios := opts.IO
	token, printToken := opts.Token, false
	if token == "" {
		var err error
		if token, err = mcpserver.NewToken(); err != nil {
			return err
		}
		printToken = true
	}
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.HTTP)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", opts.HTTP, err)
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpserver.HTTPHandler(s, mcpserver.HTTPOptions{Token: token, AllowRemote: opts.AllowRemote, Origins: cfg.MCPOrigins}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return cmdutil.ServeUntilDone(ctx, hs, ln, func() error {
		fmt.Fprintf(ios.Out, "MCP server listening on %s\n", url)
		if printToken {
			fmt.Fprintf(ios.Out, "Token: %s\n", token)
		}
		ios.Notice("Clients send: Authorization: Bearer <token>. Press Ctrl-C to stop.")
		if opts.Ready != nil {
			opts.Ready(url)
		}
		return nil
	})
}
