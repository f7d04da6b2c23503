package playgrounds

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/stream"
)

// ShellOptions are the inputs of `fibe playgrounds shell`.
type ShellOptions struct {
	cmdutil.Seams
	// StreamClient is the client of the terminal stream (see
	// cmdutil.Factory).
	StreamClient func() (*client.Client, func(), error)
	Ref          string
	Service      string
	Command      []string // after --: run this one command (it hides Seams.Command, unused here)
}

// NewCmdShell builds `fibe playgrounds shell <id|name> [-- COMMAND...]`.
func NewCmdShell(f *cmdutil.Factory, runF func(context.Context, *ShellOptions) error) *cobra.Command {
	opts := &ShellOptions{Seams: f.Seams(), StreamClient: f.StreamClient}
	cmd := &cobra.Command{
		Use:   "shell <id|name> [--service S] [-- COMMAND...]",
		Short: "Open a shell in a playground's service",
		Long: `Open an interactive shell in a playground's service (its first service
unless --service names one), or run one command after -- and exit with
its exit code.

On a terminal the keys go to the remote shell as typed (Ctrl-C included,
as with ssh); Ctrl-] then q leaves. When the session expires or the
connection drops, fibe opens a fresh session once and says so
("— session renewed —"); keys typed while it renews are dropped, never
sent twice, except the end of input (Ctrl-D alone, the end of stdin),
which the fresh session gets.

Without a terminal, stdin lines are sent as input and the output goes
to stdout; --json prints every frame as one JSON object (NDJSON), the
last one {"type":"exit","code":N}.

The exit code is the remote shell's (or the command's), as ssh and
kubectl exec pass it on; fibe's own failures keep their codes (3 not
found, 4 auth, 6 playground not running, 9 breaker open, 12 unavailable
or session expired, 130 interrupted).`,
		Example: `  fibe pg shell preview-42
  fibe pg shell preview-42 --service worker -- ls
  printf 'ls\nexit\n' | fibe pg shell preview-42`,
		Args: func(cmd *cobra.Command, args []string) error {
			if n := cmd.ArgsLenAtDash(); n >= 0 {
				if n != 1 {
					return output.FlagErrorf("expected <id|name> before --")
				}
				return nil
			}
			return cmdutil.ExactArgs(1, "<id|name>")(cmd, args)
		},
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if strings.TrimSpace(opts.Ref) == "" {
				return output.FlagErrorf("<id|name> is blank")
			}
			if n := cmd.ArgsLenAtDash(); n >= 0 {
				opts.Command = args[n:]
				if strings.TrimSpace(strings.Join(opts.Command, "")) == "" {
					return output.FlagErrorf("no command after --")
				}
			}
			if cmd.Flags().Changed("service") && strings.TrimSpace(opts.Service) == "" {
				return output.FlagErrorf("--service is blank")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return shellRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Service, "service", "s", "", "The service to open the shell in (default: the first)")
	return cmd
}

// remoteExit ends fibe with the remote shell's exit code, printing
// nothing: the remote side has said what it had to.
type remoteExit struct{ code int }

func (e remoteExit) Error() string   { return fmt.Sprintf("the remote shell exited with %d", e.code) }
func (e remoteExit) ExitStatus() int { return e.code }

func shellRun(ctx context.Context, opts *ShellOptions) error {
	ios := opts.IO
	c, stop, err := opts.StreamClient()
	if err != nil {
		return err
	}
	defer stop()
	so := stream.ShellOptions{Playground: opts.Ref, Service: opts.Service, Command: strings.Join(opts.Command, " ")}
	interactive := so.Command == "" && !ios.JSON() && ios.IsStdinTTY() && ios.IsStdoutTTY()
	var (
		code int
		left bool
	)
	if interactive {
		code, left, err = rawSession(ctx, c, ios, so)
	} else {
		so.NoTTY = true
		code, err = lineSession(ctx, c, ios, so)
	}
	switch {
	case client.IsCancelled(err):
		return &output.StoppedError{Err: err} // interrupted: exit 130, no error line
	case err != nil:
		return err
	case left || code == 0:
		return nil
	}
	return &output.StoppedError{Err: remoteExit{code: code}}
}

// renewedLine is the one dim line a renewed session gets.
func renewedLine(e stream.Event) string {
	if e.Dropped > 0 {
		return fmt.Sprintf("— session renewed (%d typed bytes dropped, not sent) —", e.Dropped)
	}
	return "— session renewed —"
}

// lineSession is the session of a script: stdin lines are input (the end
// of stdin is Ctrl-D, which ends the remote shell), output goes to stdout
// as it comes, or every frame as NDJSON with --json.
func lineSession(ctx context.Context, c *client.Client, ios *iostreams.IOStreams, so stream.ShellOptions) (int, error) {
	var input chan stream.Input
	if so.Command == "" {
		input = make(chan stream.Input)
		go func() {
			r := bufio.NewReader(ios.In)
			for {
				line, err := r.ReadBytes('\n')
				if len(line) > 0 && !sendInput(ctx, input, line) {
					return
				}
				if err != nil {
					sendInput(ctx, input, []byte{0x04}) // end of input
					return
				}
			}
		}()
	}
	cs := ios.ErrColorScheme()
	return stream.Shell(ctx, c, so, input, func(e stream.Event) error {
		if ios.JSON() {
			return ios.PrintJSONLine(e)
		}
		switch e.Type {
		case stream.EventOutput:
			_, err := io.WriteString(ios.Out, e.Data)
			return err
		case stream.EventRenewed:
			fmt.Fprintln(ios.ErrOut, cs.Gray(renewedLine(e)))
		}
		return nil
	})
}

func sendInput(ctx context.Context, input chan<- stream.Input, data []byte) bool {
	select {
	case input <- stream.Input{Data: data}:
		return true
	case <-ctx.Done():
		return false
	}
}

// escapeKey is Ctrl-], the key that starts a local command (as in telnet):
// q (or a second Ctrl-]) leaves; any other key is sent after it.
const escapeKey = 0x1d

// rawSession is the session of a person at a terminal: raw mode, so every
// key (Ctrl-C included) goes to the remote shell; the window size is sent
// at start and on every change; Ctrl-] q leaves. The terminal is restored
// however the session ends, a panic included.
func rawSession(ctx context.Context, c *client.Client, ios *iostreams.IOStreams, so stream.ShellOptions) (code int, left bool, err error) {
	in, ok := ios.In.(*os.File)
	out, ok2 := ios.Out.(*os.File)
	if !ok || !ok2 {
		return 0, false, errors.New("a terminal session needs stdin and stdout to be terminals")
	}
	so.Cols, so.Rows, _ = term.GetSize(int(out.Fd()))
	err = inRawMode(in, func(guard func()) error {
		code, left, err = terminalSession(ctx, c, ios, in, out, so, guard)
		return err
	})
	return code, left, err
}

// inRawMode runs session with the terminal in raw mode and restores the
// terminal however session ends: a return, a panic in it, or a panic in a
// goroutine it started with `defer guard()` at its top.
func inRawMode(in *os.File, session func(guard func()) error) error {
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return fmt.Errorf("cannot put the terminal in raw mode: %w", err)
	}
	var once sync.Once
	restore := func() { once.Do(func() { _ = term.Restore(int(in.Fd()), state) }) }
	defer restore() // deferred calls run on a panic too
	guard := func() {
		if r := recover(); r != nil {
			restore()
			panic(r)
		}
	}
	return session(guard)
}

// terminalSession is rawSession once the terminal is raw.
func terminalSession(ctx context.Context, c *client.Client, ios *iostreams.IOStreams, in, out *os.File, so stream.ShellOptions, guard func()) (code int, left bool, err error) {
	ctx, leave := context.WithCancel(ctx)
	defer leave()
	var leaving atomic.Bool
	input := make(chan stream.Input, 8)
	stopWinch := watchWindowSize(ctx, out, input)
	defer stopWinch()
	go func() {
		defer guard()
		readKeys(ctx, in, input, func() {
			leaving.Store(true)
			leave()
		})
	}()
	cs := ios.ErrColorScheme()
	if ios.ShowNotices() {
		fmt.Fprint(ios.ErrOut, cs.Gray("Connecting… (Ctrl-] then q leaves)")+"\r\n")
	}
	code, err = stream.Shell(ctx, c, so, input, func(e stream.Event) error {
		switch e.Type {
		case stream.EventOutput:
			_, err := io.WriteString(out, e.Data)
			return err
		case stream.EventRenewed:
			fmt.Fprint(ios.ErrOut, "\r\n"+cs.Gray(renewedLine(e))+"\r\n")
		}
		return nil
	})
	if leaving.Load() && client.IsCancelled(err) {
		fmt.Fprint(ios.ErrOut, "\r\n")
		return 0, true, nil
	}
	if err == nil {
		fmt.Fprint(ios.ErrOut, "\r\n") // the remote prompt left the cursor mid-line
	}
	return code, false, err
}

// readKeys sends what is typed, and handles Ctrl-] (leave calls end the
// session).
func readKeys(ctx context.Context, in io.Reader, input chan<- stream.Input, leave func()) {
	buf := make([]byte, 1024)
	escaped := false
	for {
		n, err := in.Read(buf)
		var send []byte
		for _, b := range buf[:n] {
			switch {
			case escaped && (b == 'q' || b == 'Q' || b == escapeKey || b == '.'):
				if len(send) > 0 {
					sendInput(ctx, input, send) // what was typed before it still goes
				}
				leave()
				return
			case escaped:
				escaped = false
				send = append(send, escapeKey, b)
			case b == escapeKey:
				escaped = true
			default:
				send = append(send, b)
			}
		}
		if len(send) > 0 && !sendInput(ctx, input, send) {
			return
		}
		if err != nil {
			return
		}
	}
}
