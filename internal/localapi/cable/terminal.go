package cable

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
)

// terminal is one subscription of the terminal channel: a fresh line
// shell per session. Its output goes through the same fault dice as log
// lines (an output message may be replaced by session_expired, or the
// connection dropped), so clients are tested on both streams alike.
type terminal struct {
	sess       *session
	identifier string

	mu   sync.Mutex // serializes input: output stays in order
	sh   *lineShell
	dead bool // expired, dropped or exited: input is ignored
}

// terminalMessage is a client → server message of the terminal channel
// (the data of an ActionCable message command).
type terminalMessage struct {
	Action string `json:"action"` // input | resize
	Data   string `json:"data"`
	Cols   int    `json:"cols"`
	Rows   int    `json:"rows"`
}

// subscribeTerminal confirms (or rejects) a terminal subscription and
// starts its shell: the greeting and prompt, or the one command asked
// for, its output and its exit code.
func (c *session) subscribeTerminal(ctx context.Context, raw string, id identifier) error {
	service, ok := c.terminalService(id)
	if !ok || c.srv.rejectSubscribe() {
		c.srv.count(func(st *Stats) { st.Rejections++ })
		c.srv.cfg.Logf("cable: subscription rejected: %s", raw)
		return c.write(ctx, typedFrame{Type: "reject_subscription", Identifier: raw})
	}
	if err := c.write(ctx, typedFrame{Type: "confirm_subscription", Identifier: raw}); err != nil {
		return err
	}
	c.srv.count(func(st *Stats) { st.Subscriptions++; st.Terminals++ })
	sh := &lineShell{service: service, playground: id.playgroundRef(), tty: id.TTY == nil || *id.TTY,
		cols: or(id.Cols, 80), rows: or(id.Rows, 24), now: c.srv.cfg.Now}
	t := &terminal{sess: c, identifier: raw, sh: sh}
	c.mu.Lock()
	c.terms[raw] = t
	c.mu.Unlock()

	t.mu.Lock()
	defer t.mu.Unlock()
	if id.Command != "" {
		sh.tty = false
		out, exit := sh.run(id.Command)
		if !t.output(ctx, out) {
			return nil
		}
		code := sh.last
		if exit != nil {
			code = exit.code
		}
		t.exit(ctx, code)
		return nil
	}
	t.output(ctx, sh.greeting())
	return nil
}

// terminalService is the service a terminal subscription opens: the one
// named (it must exist), else the playground's first. The playground must
// be running.
func (c *session) terminalService(id identifier) (string, bool) {
	if c.srv.cfg.Lookup == nil {
		return "", false
	}
	_, services, ok := c.srv.cfg.Lookup(id.playgroundRef())
	if !ok {
		return "", false
	}
	if st := c.srv.cfg.Status; st != nil && st(id.playgroundRef()) != "running" {
		return "", false
	}
	if id.Service == "" {
		if len(services) == 0 {
			return "app", true
		}
		return services[0], true
	}
	for _, s := range services {
		if s == id.Service {
			return s, true
		}
	}
	return "", false
}

// message applies one message command to its terminal. Messages of
// unknown subscriptions are ignored, as ActionCable does.
func (c *session) message(ctx context.Context, cmd command) error {
	c.mu.Lock()
	t := c.terms[cmd.Identifier]
	c.mu.Unlock()
	if t == nil {
		return nil
	}
	var m terminalMessage
	if json.Unmarshal([]byte(cmd.Data), &m) != nil {
		return nil
	}
	c.srv.count(func(st *Stats) { st.Inputs++ })
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dead {
		return nil
	}
	switch m.Action {
	case "input":
		out, exit := t.sh.feed(m.Data)
		if !t.output(ctx, out) {
			return nil
		}
		if exit != nil {
			t.exit(ctx, exit.code)
		}
	case "resize":
		if m.Cols > 0 && m.Rows > 0 && m.Cols <= 10000 && m.Rows <= 10000 {
			t.sh.cols, t.sh.rows = m.Cols, m.Rows
		}
	}
	return nil
}

// output sends out, or the fault that replaces it. It reports whether the
// session lives on. Called with t.mu held.
func (t *terminal) output(ctx context.Context, out string) bool {
	if t.dead {
		return false
	}
	if out == "" {
		return true
	}
	srv := t.sess.srv
	fault, count := srv.nextLineFault()
	switch fault {
	case drop:
		t.dead = true
		srv.count(func(s *Stats) { s.Drops++ })
		srv.cfg.Logf("cable: connection dropped instead of terminal output")
		t.sess.abort()
		return false
	case expire:
		t.dead = true
		for i := 0; i < count; i++ {
			srv.count(func(s *Stats) { s.Expiries++ })
			if t.sess.write(ctx, channelFrame{Identifier: t.identifier, Message: expiredMessage(i)}) != nil {
				break
			}
		}
		srv.cfg.Logf("cable: terminal session_expired x%d", count)
		return false
	}
	srv.count(func(s *Stats) { s.Outputs++ }) // before the write, as for lines
	if t.sess.write(ctx, channelFrame{Identifier: t.identifier, Message: map[string]string{"type": "output", "data": out}}) != nil {
		t.dead = true
		return false
	}
	return true
}

// exit sends the exit code and ends the session. Called with t.mu held.
func (t *terminal) exit(ctx context.Context, code int) {
	t.dead = true
	t.sess.mu.Lock()
	delete(t.sess.terms, t.identifier)
	t.sess.mu.Unlock()
	t.sess.srv.count(func(s *Stats) { s.Exits++ })
	t.sess.srv.cfg.Logf("cable: terminal exited with %s", strconv.Itoa(code))
	_ = t.sess.write(ctx, channelFrame{Identifier: t.identifier, Message: map[string]any{"type": "exit", "code": code}})
}

func or(v, def int) int {
	if v <= 0 || v > 10000 {
		return def
	}
	return v
}
