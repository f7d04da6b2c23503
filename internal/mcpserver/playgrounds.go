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

// ---- playgrounds

type pgListIn struct {
	Status string `json:"status,omitempty" jsonschema:"Only playgrounds with this status (running, creating, stopped, error, ...)"`
	Name   string `json:"name,omitempty" jsonschema:"Only playgrounds whose name matches"`
	listArgs
}

func pgList() *Tool {
	return define(spec{name: "fibe_playgrounds_list", title: "List playgrounds", readOnly: true,
		desc:   "List playgrounds (one page, or every page with all). Same as `fibe pg list --json`.",
		output: listSchema[client.Playground](), tweak: listRanges},
		func(ctx context.Context, c *call, in *pgListIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			lo := in.options()
			lo.Status, lo.Name = in.Status, in.Name
			return listed(in.All, func() ([]client.Playground, error) { return cl.Playgrounds.ListAll(ctx, lo) },
				func() ([]client.Playground, *client.ListMeta, error) { return cl.Playgrounds.List(ctx, lo) })
		})
}

type pgRefIn struct {
	Playground string `json:"playground"`
}

func (r pgRefIn) validate() error { return nonBlank("playground", r.Playground) }

func pgGet() *Tool {
	return define(spec{name: "fibe_playgrounds_get", title: "Show a playground", readOnly: true,
		desc:   "One playground by id or name. Same as `fibe pg get --json`.",
		output: schemaOf[client.Playground](), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgRefIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			p, _, err := cl.Playgrounds.Get(ctx, in.Playground)
			return p, err
		})
}

type pgCreateIn struct {
	Name     string            `json:"name" jsonschema:"Name of the playground"`
	Playspec string            `json:"playspec" jsonschema:"Playspec id or name"`
	Marquee  string            `json:"marquee,omitempty" jsonschema:"Marquee id or name (default: the account's default marquee)"`
	Env      map[string]string `json:"env,omitempty" jsonschema:"Environment overrides, name to value"`
	mutationArgs
	waitArgs
}

func (in pgCreateIn) validate() error {
	if err := nonBlank("name", in.Name); err != nil {
		return err
	}
	return nonBlank("playspec", in.Playspec)
}

func pgCreate() *Tool {
	return define(spec{name: "fibe_playgrounds_create", title: "Create a playground",
		desc: "Create a playground from a playspec on a marquee, then (unless wait is false) wait until it is running. " +
			"The result is the playground, as `fibe pg create --json` prints it.",
		output: orHandle(schemaOf[client.Playground]())},
		func(ctx context.Context, c *call, in *pgCreateIn) (any, error) {
			body := map[string]any{"name": in.Name, "playspec_id": idOrName(in.Playspec)}
			if in.Marquee != "" {
				body["marquee_id"] = idOrName(in.Marquee)
			}
			if len(in.Env) > 0 {
				env := map[string]any{}
				for k, v := range in.Env {
					env[k] = v
				}
				body["env_overrides"] = env
			}
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("creating %s", in.Name)
			wo := in.waitArgs.options(c)
			began := time.Now()
			mo := in.mutationArgs.options()
			// The create stays journaled while its playground is awaited: a
			// call handed off and made again replays it and waits on.
			mo.KeepJournaled = !wo.NoWait
			p, resp, err := cl.Playgrounds.Create(ctx, body, mo, wo)
			c.resp = resp
			if err != nil {
				return nil, err
			}
			forget := func() {
				if in.IdempotencyKey == "" && resp != nil {
					cl.ForgetJournaled(resp.IdempotencyKey)
				}
			}
			if p == nil { // not waited: the 202 handle
				return resp.Accepted, nil
			}
			if wo.NoWait || p.Status == "running" {
				forget()
				return p, nil
			}
			c.setLabel("waiting for %s to be running", in.Name)
			wo.Timeout = max(wo.Timeout-time.Since(began), time.Millisecond) // one wait_timeout for the whole call
			st, err := cl.Playgrounds.Wait(ctx, p.Name, "running", wo)
			if err != nil {
				if !client.IsAsyncTimeout(err) && !client.IsCancelled(err) {
					forget() // the wait ended: nothing left to resume
				}
				return nil, err
			}
			forget()
			return st.Playground, nil
		})
}

type pgUpdateIn struct {
	Playground string            `json:"playground"`
	Name       string            `json:"name,omitempty" jsonschema:"New name"`
	Env        map[string]string `json:"env,omitempty" jsonschema:"Environment overrides to set, name to value"`
	mutationArgs
	waitArgs
}

func (in pgUpdateIn) validate() error {
	if err := nonBlank("playground", in.Playground); err != nil {
		return err
	}
	if in.Name == "" && len(in.Env) == 0 {
		return invalidArgument("name", "nothing to change: give name or env")
	}
	return nil
}

func pgUpdate() *Tool {
	return define(spec{name: "fibe_playgrounds_update", title: "Change a playground", idempotent: true,
		desc:   "Rename a playground or set environment overrides. Same as `fibe pg update --json`.",
		output: orHandle(schemaOf[client.Playground]()), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgUpdateIn) (any, error) {
			body := map[string]any{}
			if in.Name != "" {
				body["name"] = in.Name
			}
			if len(in.Env) > 0 {
				env := map[string]any{}
				for k, v := range in.Env {
					env[k] = v
				}
				body["env_overrides"] = env
			}
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("updating %s", in.Playground)
			p, resp, err := cl.Playgrounds.UpdateWait(ctx, in.Playground, body, in.mutationArgs.options(), in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if p == nil {
				return resp.Accepted, nil
			}
			return p, nil
		})
}

type pgDeleteIn struct {
	Playground string `json:"playground"`
	confirmArgs
	mutationArgs
	waitArgs
}

func (in pgDeleteIn) validate() error  { return nonBlank("playground", in.Playground) }
func (in pgDeleteIn) question() string { return "Delete playground " + in.Playground + "?" }

// deleted is what `fibe <noun> delete --json` prints.
func deleted(noun, ref string) map[string]any { return map[string]any{"deleted": true, noun: ref} }

func deletedSchema(noun string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: []string{"deleted", noun}, Properties: map[string]*jsonschema.Schema{
		"deleted": {Type: "boolean"}, noun: {Type: "string"}}}
}

func pgDelete() *Tool {
	return define(spec{name: "fibe_playgrounds_delete", title: "Delete a playground", destructive: true, idempotent: true,
		desc:   "Delete a playground and wait for its teardown. Needs \"confirm\": true. Same as `fibe pg delete --yes --json`.",
		output: orHandle(deletedSchema("playground")), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgDeleteIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("deleting %s", in.Playground)
			wo := in.waitArgs.options(c)
			resp, err := cl.Playgrounds.Delete(ctx, in.Playground, in.mutationArgs.options(), wo)
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if wo.NoWait && resp != nil && resp.Accepted != nil {
				return resp.Accepted, nil
			}
			return deleted("playground", in.Playground), nil
		})
}

var actionLabels = map[string]string{"rollout": "rolling out", "hard_restart": "restarting", "start": "starting", "stop": "stopping"}

type pgActionIn struct {
	Playground string `json:"playground"`
	Action     string `json:"action" jsonschema:"rollout (build and deploy), hard_restart (restart the services) or start (a stopped playground)"`
	Force      bool   `json:"force,omitempty" jsonschema:"Force the operation (rollout)"`
	mutationArgs
	waitArgs
}

func (in pgActionIn) validate() error { return nonBlank("playground", in.Playground) }

func pgAction() *Tool {
	return define(spec{name: "fibe_playgrounds_action", title: "Roll out, restart or start a playground",
		desc: "Run rollout, hard_restart or start on a playground and wait for it. The result is the final status, " +
			"as `fibe pg rollout --json` prints it; a playground that ends in error is PLAYGROUND_TERMINAL_STATE with the failed step.",
		output: orHandle(schemaOf[client.PlaygroundStatus]()),
		tweak:  func(s *jsonschema.Schema) { pgRef(s); enum(s, "action", "rollout", "hard_restart", "start") }},
		func(ctx context.Context, c *call, in *pgActionIn) (any, error) {
			return runAction(ctx, c, in.Playground, in.Action, in.Force, in.mutationArgs, in.waitArgs)
		})
}

func runAction(ctx context.Context, c *call, ref, action string, force bool, m mutationArgs, w waitArgs) (any, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	c.setLabel("%s %s", actionLabels[action], ref)
	wo := w.options(c)
	st, resp, err := cl.Playgrounds.Action(ctx, ref, action, force, m.options(), wo)
	c.resp = resp
	if err != nil {
		return nil, err
	}
	if st == nil {
		return resp.Accepted, nil
	}
	return st, nil
}

type pgStopIn struct {
	Playground string `json:"playground"`
	confirmArgs
	mutationArgs
	waitArgs
}

func (in pgStopIn) validate() error { return nonBlank("playground", in.Playground) }
func (in pgStopIn) question() string {
	return "Stop playground " + in.Playground + " (takes its services down)?"
}

func pgStop() *Tool {
	return define(spec{name: "fibe_playgrounds_stop", title: "Stop a playground", destructive: true,
		desc:   "Stop a playground (takes its services down) and wait for it. Needs \"confirm\": true. Same as `fibe pg stop --json`.",
		output: orHandle(schemaOf[client.PlaygroundStatus]()), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgStopIn) (any, error) {
			return runAction(ctx, c, in.Playground, "stop", false, in.mutationArgs, in.waitArgs)
		})
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

// idOrName sends a numeric reference as a number, as the CLI does.
func idOrName(ref string) any {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil && n > 0 {
		return n
	}
	return ref
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
