package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// Input is one item of terminal input: bytes typed (Data), or, when Cols
// is set, a new window size.
type Input struct {
	Data       []byte
	Cols, Rows int
}

// endOfInput is Ctrl-D, the end of input: a script's session sends it
// alone when its stdin ends.
const endOfInput = 0x04

// isEnd reports whether in is the end of input alone.
func (in Input) isEnd() bool { return len(in.Data) == 1 && in.Data[0] == endOfInput }

// ShellOptions shape a terminal session.
type ShellOptions struct {
	Playground string // id or name
	Service    string // "" → the playground's first service
	// Command runs one command instead of an interactive shell; the
	// session ends with its exit code. A session lost while it runs is not
	// opened again (its outcome is unknown).
	Command    string
	Cols, Rows int  // window size (0 → the server's default)
	NoTTY      bool // no pseudo-terminal: no echo, no prompt (scripts)

	// PingInterval is the liveness interval until the server has shown
	// its own by two pings (0 → 3s).
	PingInterval time.Duration
}

// Event is what a terminal session reports, in order. Its JSON form is
// the NDJSON frame of `fibe pg shell --json`.
type Event struct {
	Type string `json:"type"`           // output | exit | renewed
	Data string `json:"data,omitempty"` // output: the bytes, as UTF-8
	Code *int   `json:"code,omitempty"` // exit: the remote exit code
	// Dropped (renewed): input bytes typed while the session was renewing,
	// dropped rather than sent to a session they were not typed for.
	Dropped int `json:"dropped,omitempty"`
}

// Event types.
const (
	EventOutput  = "output"
	EventExit    = "exit"
	EventRenewed = "renewed"
)

// Shell runs a terminal session in a playground's service until the
// remote side exits (its exit code, nil error), ctx ends (CANCELLED), emit
// fails (its error) or the session cannot be kept up (a typed error).
// input carries what is typed and window sizes; it is read once the
// first subscription is confirmed, and may be nil.
//
// A session that expires is renewed once per expiry (docs/contract.md §7), and a
// dropped connection is reconnected through the retry loop and the
// marquee breaker; the new session starts a fresh prompt and emit is told
// (an EventRenewed, with the input dropped meanwhile). With a Command the
// session is never renewed: a loss after it started is SESSION_EXPIRED (or
// the drop's error) with OutcomeUnknown set.
func Shell(ctx context.Context, c *client.Client, opts ShellOptions, input <-chan Input, emit func(Event) error) (int, error) {
	pg, err := runningPlayground(ctx, c, opts.Playground, opts.Service)
	if err != nil {
		return 0, err
	}
	t := &terminal{opts: opts, playground: pg.ID, emit: emit}
	err = newKeeper(c, t, pg, opts.PingInterval).run(ctx, input)
	var exit exited
	if errors.As(err, &exit) {
		return exit.code, nil
	}
	return 0, err
}

// ExecRequest is one command to run in a playground's service.
type ExecRequest struct {
	Playground string
	Service    string // "" → the first service
	Command    string
}

// ExecResult is what the command printed and its exit code.
type ExecResult struct {
	Output   string `json:"output"`
	ExitCode int    `json:"exit_code"`
}

// Exec runs one command over the terminal channel (no pseudo-terminal)
// and returns its output and exit code. The command is never run twice:
// if its session expires or its connection drops while it runs, the
// error (SESSION_EXPIRED, or the drop's) has OutcomeUnknown set.
func Exec(ctx context.Context, c *client.Client, req ExecRequest) (ExecResult, error) {
	if strings.TrimSpace(req.Command) == "" {
		return ExecResult{}, client.InvalidArgument("command", "command is empty")
	}
	if strings.TrimSpace(req.Playground) == "" {
		return ExecResult{}, client.InvalidArgument("playground", "playground is empty")
	}
	var out strings.Builder
	code, err := Shell(ctx, c, ShellOptions{Playground: req.Playground, Service: req.Service, Command: req.Command, NoTTY: true},
		nil, func(e Event) error {
			if e.Type == EventOutput {
				out.WriteString(e.Data)
			}
			return nil
		})
	if err != nil {
		return ExecResult{Output: out.String()}, err
	}
	return ExecResult{Output: out.String(), ExitCode: code}, nil
}

// runningPlayground finds the playground and checks what a terminal
// needs: it is running (else CONFLICT with its status) and has the
// service asked for (else VALIDATION_FAILED naming those it has).
func runningPlayground(ctx context.Context, c *client.Client, ref, service string) (*client.Playground, error) {
	pg, _, err := c.Playgrounds.Get(ctx, ref)
	if err != nil {
		return nil, err
	}
	if pg.Status != "running" {
		return nil, &client.Error{Code: client.CodeConflict,
			Message: fmt.Sprintf("playground %s is %s; a shell needs it running", pg.Name, pg.Status),
			Details: map[string]any{"status": pg.Status, "playground": pg.Name}}
	}
	if service == "" || len(pg.Services) == 0 {
		return pg, nil
	}
	names := make([]string, 0, len(pg.Services))
	for _, s := range pg.Services {
		if s.Name == service {
			return pg, nil
		}
		names = append(names, s.Name)
	}
	return nil, &client.Error{Code: client.CodeValidation,
		Message: fmt.Sprintf("service %q is not a service of playground %s (%s)", service, pg.Name, strings.Join(names, ", ")),
		Details: map[string]any{"service": service, "services": names}}
}

// terminal is the terminal channel.
type terminal struct {
	opts       ShellOptions
	playground int64
	emit       func(Event) error
}

// exited ends the keeper's loop when the remote side sent its exit code.
type exited struct{ code int }

func (e exited) Error() string { return fmt.Sprintf("remote exited with %d", e.code) }

// terminalIdentifier is the subscription identifier of the terminal
// channel. tty (default true) and command are this client's additions:
// a script's session without a pseudo-terminal, and one command instead
// of a shell.
type terminalIdentifier struct {
	Channel      string `json:"channel"`
	PlaygroundID int64  `json:"playground_id"`
	Service      string `json:"service,omitempty"`
	Cols         int    `json:"cols,omitempty"`
	Rows         int    `json:"rows,omitempty"`
	TTY          *bool  `json:"tty,omitempty"`
	Command      string `json:"command,omitempty"`
}

func (t *terminal) what() string { return "terminal" }

func (t *terminal) identifier() string {
	id := terminalIdentifier{Channel: playgroundTerminalChannel, PlaygroundID: t.playground, Service: t.opts.Service,
		Cols: t.opts.Cols, Rows: t.opts.Rows, Command: t.opts.Command}
	if t.opts.NoTTY {
		no := false
		id.TTY = &no
	}
	b, _ := json.Marshal(id)
	return string(b)
}

// terminalMessage is a server → client message of the terminal channel.
type terminalMessage struct {
	Type string `json:"type"`
	Data string `json:"data"`
	Code *int   `json:"code"`
}

// message passes output and the exit code on. Output is not progress by
// itself: a fresh session prints a prompt, so only a subscription that
// stayed up a ping interval shows the session works.
func (t *terminal) message(raw json.RawMessage) (bool, error) {
	var m terminalMessage
	if json.Unmarshal(raw, &m) != nil {
		return false, nil
	}
	switch m.Type {
	case EventOutput:
		if m.Data == "" {
			return false, nil
		}
		return false, t.emit(Event{Type: EventOutput, Data: m.Data})
	case EventExit:
		code := 0
		if m.Code != nil {
			code = *m.Code
		}
		if err := t.emit(Event{Type: EventExit, Code: &code}); err != nil {
			return false, err
		}
		return true, exited{code: code}
	}
	return false, nil
}

func (t *terminal) confirmed(first bool, dropped int) error {
	if first {
		return nil
	}
	return t.emit(Event{Type: EventRenewed, Dropped: dropped})
}

func (t *terminal) outgoing(in Input) (any, int) {
	if in.Cols > 0 && in.Rows > 0 {
		t.opts.Cols, t.opts.Rows = in.Cols, in.Rows // the next session opens at this size
		return map[string]any{"action": "resize", "cols": in.Cols, "rows": in.Rows}, 0
	}
	if len(in.Data) == 0 {
		return nil, 0
	}
	return map[string]any{"action": "input", "data": string(in.Data)}, len(in.Data)
}

func (t *terminal) oneShot() bool { return t.opts.Command != "" }

func (t *terminal) details() map[string]any {
	d := map[string]any{"playground_id": t.playground}
	if t.opts.Service != "" {
		d["service"] = t.opts.Service
	}
	return d
}
