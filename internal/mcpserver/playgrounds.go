package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/stream"
)

// ---- playgrounds: the tools beyond the generic verbs and actions

// pgRef describes the playground argument.
func pgRef(in *jsonschema.Schema) {
	in.Properties["playground"].Description = "Playground id or name"
}

type pgExecIn struct {
	Playground string `json:"playground"`
	Service    string `json:"service,omitempty" jsonschema:"The service to run it in (default: the playground's first service)"`
	Command    string `json:"command" jsonschema:"One shell command line, run once"`
}

func (in pgExecIn) validate() error {
	if err := nonBlank("playground", in.Playground); err != nil {
		return err
	}
	return nonBlank("command", in.Command)
}

// pgExec runs one command over the terminal channel. It is never run twice
// by itself: if the session expires while the command runs, its outcome is
// unknown and the error (SESSION_EXPIRED) says so.
func pgExec() *Tool {
	return define(spec{name: "fibe_playgrounds_exec", title: "Run a command in a playground", destructive: true, ungated: true,
		desc: "Run one command in a playground's service over its live terminal and return its output and exit code: " +
			"{\"output\", \"exit_code\"}. The command runs once; if the session expires while it runs, the error is " +
			"SESSION_EXPIRED with an unknown outcome and the command is not run again. Same as `fibe pg shell P -- COMMAND`.",
		output: schemaOf[stream.ExecResult](), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgExecIn) (any, error) {
			cl, err := c.streamClient()
			if err != nil {
				return nil, err
			}
			return stream.Exec(ctx, cl, stream.ExecRequest{Playground: in.Playground, Service: in.Service, Command: in.Command})
		})
}

type pgStatusIn struct {
	Playground string `json:"playground"`
	Refresh    bool   `json:"refresh,omitempty" jsonschema:"Ask the marquee for the live state first (an async operation)"`
	mutationArgs
	waitArgs
}

func (in pgStatusIn) validate() error { return nonBlank("playground", in.Playground) }

func pgStatus() *Tool {
	return define(spec{name: "fibe_playgrounds_status", title: "Show a playground's status", readOnly: true,
		desc:   "A playground's status, with the failed step and diagnostics when it failed. Same as `fibe pg status --json`.",
		output: orHandle(schemaOf[client.PlaygroundStatus]()), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgStatusIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			if !in.Refresh {
				st, _, err := cl.Playgrounds.Status(ctx, in.Playground)
				return st, err
			}
			c.setLabel("refreshing %s", in.Playground)
			st, resp, err := cl.Playgrounds.RefreshStatus(ctx, in.Playground, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if st == nil {
				return resp.Accepted, nil
			}
			return st, nil
		})
}

type pgWaitIn struct {
	Playground  string `json:"playground"`
	For         string `json:"for,omitempty" jsonschema:"Status to wait for: running (default) or stopped"`
	WaitTimeout int    `json:"wait_timeout,omitempty" jsonschema:"How long to wait, in seconds (default 300, at most 1800)"`
	budgetArgs
}

func (in pgWaitIn) validate() error { return nonBlank("playground", in.Playground) }

func pgWait() *Tool {
	return define(spec{name: "fibe_playgrounds_wait", title: "Wait for a playground's status", readOnly: true,
		desc: "Wait until a playground is running (or stopped). Reaching error, failed or destroyed instead is " +
			"PLAYGROUND_TERMINAL_STATE with the reasons. Same as `fibe pg wait --json`.",
		output: orHandoff(schemaOf[client.PlaygroundStatus]()),
		tweak: func(s *jsonschema.Schema) {
			pgRef(s)
			enum(s, "for", "running", "stopped")
			s.Properties["for"].Default = json.RawMessage(`"running"`)
		}},
		func(ctx context.Context, c *call, in *pgWaitIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			forStatus := orDefault(in.For, "running")
			c.setLabel("waiting for %s to be %s", in.Playground, forStatus)
			st, err := cl.Playgrounds.Wait(ctx, in.Playground, forStatus, waitArgs{WaitTimeout: in.WaitTimeout, budgetArgs: in.budgetArgs}.options(c))
			return st, err
		})
}

type pgLogsIn struct {
	Playground string `json:"playground"`
	Service    string `json:"service,omitempty" jsonschema:"Only this service"`
	Tail       int    `json:"tail,omitempty" jsonschema:"Number of recent lines (default: the server's)"`
	mutationArgs
	waitArgs
}

func (in pgLogsIn) validate() error { return nonBlank("playground", in.Playground) }

func pgLogs() *Tool {
	return define(spec{name: "fibe_playgrounds_logs", title: "Recent log lines of a playground", readOnly: true,
		desc: "A snapshot of a playground's recent log lines: {\"lines\": [...]}. Same as `fibe pg logs --json`.",
		output: orHandle(&jsonschema.Schema{Type: "object", Required: []string{"lines"}, Properties: map[string]*jsonschema.Schema{
			"lines": {Type: "array", Items: &jsonschema.Schema{Type: "string"}}}}),
		tweak: func(s *jsonschema.Schema) {
			pgRef(s)
			s.Properties["tail"].Minimum, s.Properties["tail"].Maximum = ptr(1.0), ptr(10000.0)
		}},
		func(ctx context.Context, c *call, in *pgLogsIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("fetching logs of %s", in.Playground)
			wo := in.waitArgs.options(c)
			lines, resp, err := cl.Playgrounds.Logs(ctx, in.Playground, in.Service, in.Tail, in.mutationArgs.options(), wo)
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if lines == nil && wo.NoWait && resp != nil && resp.Accepted != nil {
				return resp.Accepted, nil
			}
			if lines == nil {
				lines = []string{}
			}
			return map[string]any{"lines": lines}, nil
		})
}

// ---- live logs

const (
	maxFollowSecs    = 10 * 60
	defaultFollowSec = 30
	defaultMaxLines  = 1000
)

type logsFollowIn struct {
	Playground string `json:"playground"`
	Service    string `json:"service,omitempty" jsonschema:"Only this service"`
	Duration   int    `json:"duration,omitempty" jsonschema:"How long to follow, in seconds (default 30, at most 600)"`
	MaxLines   int    `json:"max_lines,omitempty" jsonschema:"Stop after this many lines (default 1000)"`
	Tail       int    `json:"tail,omitempty" jsonschema:"Replay this many recent lines first (default 0: only new lines)"`
}

func (in logsFollowIn) validate() error { return nonBlank("playground", in.Playground) }

// followResult is the lines seen and why the stream ended.
type followResult struct {
	Lines []stream.LogLine `json:"lines"`
	Ended string           `json:"ended" jsonschema:"duration or max_lines"`
}

func logsFollow() *Tool {
	return define(spec{name: "fibe_logs_follow", title: "Follow a playground's live logs", readOnly: true,
		desc: "Stream a playground's live log lines for a bounded time: each line is sent as a progress notification " +
			"(when the call has a progressToken) and the result holds them all, each as one line of " +
			"`fibe pg logs --follow --json` prints it. The stream recovers from drops as the CLI does.",
		output: schemaOf[followResult](),
		tweak: func(s *jsonschema.Schema) {
			pgRef(s)
			s.Properties["duration"].Minimum, s.Properties["duration"].Maximum = ptr(1.0), ptr(float64(maxFollowSecs))
			s.Properties["duration"].Default = json.RawMessage(strconv.Itoa(defaultFollowSec))
			s.Properties["max_lines"].Minimum, s.Properties["max_lines"].Maximum = ptr(1.0), ptr(100000.0)
			s.Properties["max_lines"].Default = json.RawMessage(strconv.Itoa(defaultMaxLines))
			s.Properties["tail"].Minimum, s.Properties["tail"].Maximum = ptr(0.0), ptr(10000.0)
		}},
		func(ctx context.Context, c *call, in *logsFollowIn) (any, error) {
			cl, err := c.streamClient()
			if err != nil {
				return nil, err
			}
			dur := time.Duration(orInt(in.Duration, defaultFollowSec)) * time.Second
			maxLines := orInt(in.MaxLines, defaultMaxLines)
			fctx, cancel := context.WithTimeout(ctx, dur)
			defer cancel()
			res := followResult{Lines: []stream.LogLine{}, Ended: "duration"}
			errFull := errors.New("max lines")
			err = stream.Follow(fctx, cl, in.Playground, stream.FollowOptions{Service: in.Service, Tail: in.Tail}, func(l stream.LogLine) error {
				res.Lines = append(res.Lines, l)
				c.notify(logText(l))
				if len(res.Lines) >= maxLines {
					res.Ended = "max_lines"
					return errFull
				}
				return nil
			})
			switch {
			case errors.Is(err, errFull):
			case err != nil && ctx.Err() == nil && fctx.Err() != nil:
				// The duration ran out: that is how a bounded follow ends.
			case err != nil:
				return nil, err
			}
			return res, nil
		})
}

func logText(l stream.LogLine) string {
	if l.Service != "" {
		return l.Service + " | " + l.Line
	}
	return l.Line
}

func orInt(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
