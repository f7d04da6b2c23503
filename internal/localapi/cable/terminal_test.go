package cable

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// send sends one terminal message command for ident.
func (p *peer) send(ident string, msg terminalMessage) {
	p.t.Helper()
	data, _ := json.Marshal(msg)
	cmd, _ := json.Marshal(command{Command: "message", Identifier: ident, Data: string(data)})
	if err := p.ws.Write(context.Background(), websocket.MessageText, cmd); err != nil {
		p.t.Fatalf("send: %v", err)
	}
}

// output reads terminal messages until the output so far contains want,
// and returns it; an exit message ends the read too.
func (p *peer) output(want string) (string, *int) {
	p.t.Helper()
	var out strings.Builder
	for !strings.Contains(out.String(), want) {
		f := p.next()
		msg, _ := f["message"].(map[string]any)
		switch msg["type"] {
		case "output":
			out.WriteString(msg["data"].(string))
		case "exit":
			code := int(msg["code"].(float64))
			return out.String(), &code
		default:
			p.t.Fatalf("frame %v after output %q, want %q", f, out.String(), want)
		}
	}
	return out.String(), nil
}

func terminalIdent(extra map[string]any) map[string]any {
	id := map[string]any{"channel": PlaygroundTerminalChannel, "playground_id": 42}
	for k, v := range extra {
		id[k] = v
	}
	return id
}

func TestTerminalShellEchoesRunsCommandsAndExits(t *testing.T) {
	srv, url := newTestServer(t, nil)
	p := dialKey(t, url)
	ident := p.subscribe(terminalIdent(map[string]any{"service": "worker", "cols": 100, "rows": 30}))
	if f := p.next(); f["type"] != "confirm_subscription" {
		t.Fatalf("got %v, want confirm", f)
	}
	if out, _ := p.output("worker:/app$ "); !strings.Contains(out, "Connected to worker") {
		t.Fatalf("greeting %q", out)
	}
	p.send(ident, terminalMessage{Action: "input", Data: "echo hi"})
	if out, _ := p.output("echo hi"); out != "echo hi" {
		t.Fatalf("echo of typed keys %q", out)
	}
	p.send(ident, terminalMessage{Action: "input", Data: "\r"})
	if out, _ := p.output("$ "); out != "\r\nhi\r\nworker:/app$ " {
		t.Fatalf("output %q", out)
	}
	p.send(ident, terminalMessage{Action: "resize", Cols: 120, Rows: 40})
	p.send(ident, terminalMessage{Action: "input", Data: "env\rnope\r"})
	out, _ := p.output("not found\r\nworker:/app$ ")
	if !strings.Contains(out, "COLUMNS=120") || !strings.Contains(out, "sh: nope: command not found") {
		t.Fatalf("output %q", out)
	}
	p.send(ident, terminalMessage{Action: "input", Data: "exit 3\r"})
	if _, code := p.output("\x00never"); code == nil || *code != 3 {
		t.Fatalf("exit code %v, want 3", code)
	}
	if st := srv.Stats(); st.Terminals != 1 || st.Exits != 1 || st.Inputs != 5 {
		t.Fatalf("stats %+v", st)
	}
}

func TestTerminalWithoutTTYNeitherEchoesNorPrompts(t *testing.T) {
	_, url := newTestServer(t, nil)
	p := dialKey(t, url)
	ident := p.subscribe(terminalIdent(map[string]any{"tty": false}))
	p.next() // confirm
	p.send(ident, terminalMessage{Action: "input", Data: "ls\nbad\n\x04"})
	out, code := p.output("\x00never")
	if out != "Dockerfile  README.md  app.py  static\nsh: bad: command not found\n" || code == nil || *code != 127 {
		t.Fatalf("output %q, code %v", out, code)
	}
}

func TestTerminalRunsOneCommand(t *testing.T) {
	_, url := newTestServer(t, nil)
	p := dialKey(t, url)
	p.subscribe(terminalIdent(map[string]any{"command": "echo one shot"}))
	p.next() // confirm
	if out, code := p.output("\x00never"); out != "one shot\n" || code == nil || *code != 0 {
		t.Fatalf("output %q, code %v", out, code)
	}
	p.subscribe(terminalIdent(map[string]any{"command": "exit 7"}))
	p.next()
	if _, code := p.output("\x00never"); code == nil || *code != 7 {
		t.Fatalf("code %v, want 7", code)
	}
}

func TestTerminalRejectsAnUnknownServiceOrPlayground(t *testing.T) {
	_, url := newTestServer(t, func(c *Config) {
		c.Status = func(ref string) string {
			if ref == "43" {
				return "stopped"
			}
			return "running"
		}
	})
	p := dialKey(t, url)
	for _, id := range []map[string]any{terminalIdent(map[string]any{"service": "nope"}), {"channel": PlaygroundTerminalChannel, "playground_id": 7},
		{"channel": PlaygroundTerminalChannel, "playground_id": 43}} {
		p.subscribe(id)
		if f := p.next(); f["type"] != "reject_subscription" {
			t.Fatalf("%v: got %v, want reject", id, f)
		}
	}
}

// The log faults apply to terminal output: an expiry replaces the next
// output and ends the session (input is ignored afterwards); a drop
// closes the connection.
func TestTerminalFaults(t *testing.T) {
	srv, url := newTestServer(t, func(c *Config) { c.PingInterval = time.Hour })
	p := dialKey(t, url)
	ident := p.subscribe(terminalIdent(nil))
	p.next()
	p.output("$ ")
	srv.SetFaults(Faults{ExpireBurst: 3})
	p.send(ident, terminalMessage{Action: "input", Data: "echo x\r"})
	for i := 0; i < 3; i++ {
		f := p.next()
		msg, _ := f["message"].(map[string]any)
		if msg["status"] != "session_expired" {
			t.Fatalf("frame %d: %v, want session_expired", i, f)
		}
	}
	p.send(ident, terminalMessage{Action: "input", Data: "echo y\r"})
	if f, err := p.read(100 * time.Millisecond); err == nil {
		t.Fatalf("an expired session answered: %v", f)
	}

	srv.SetFaults(Faults{DropRate: 1})
	q := dialKey(t, url)
	q.subscribe(terminalIdent(nil))
	q.next() // confirm; the greeting is replaced by the drop
	if _, err := q.read(2 * time.Second); err == nil {
		t.Fatal("the connection was not dropped")
	}
}

func FuzzLineShell(f *testing.F) {
	for _, s := range []string{"echo hi\r", "ls\n\x04", "exit 3\r", "\x1b[A\x7f\x7f\x03", "\xff\xfe\r\n", "exit x\r", "env\r"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, in string, tty bool) {
		sh := &lineShell{service: "web", playground: "42", tty: tty, cols: 80, rows: 24, now: time.Now}
		out, exit := sh.feed(in)
		if exit != nil && (exit.code < 0 || exit.code > 255) {
			t.Fatalf("exit code %d", exit.code)
		}
		if len(sh.line) > 4096 {
			t.Fatalf("line grew to %d bytes", len(sh.line))
		}
		// What goes on the wire must survive JSON: invalid UTF-8 becomes
		// U+FFFD, never an error.
		b, err := json.Marshal(map[string]string{"data": out})
		if err != nil || !utf8.Valid(b) {
			t.Fatalf("output %q does not encode: %v", out, err)
		}
	})
}

// The server takes any data in a message command on a live terminal
// without crashing or closing the connection.
func FuzzTerminalMessage(f *testing.F) {
	for _, s := range []string{`{"action":"input","data":"ls\r"}`, `{"action":"resize","cols":80,"rows":24}`,
		`{"action":"resize","cols":-1,"rows":1e9}`, `[]`, `{"data":1}`, `{"action":"input","data":"\u0000\udfff"}`, "\xff"} {
		f.Add(s)
	}
	_, url := newTestServer(f, func(c *Config) { c.PingInterval = time.Hour })
	f.Fuzz(func(t *testing.T, data string) {
		p := dialKey(t, url)
		ident := p.subscribe(terminalIdent(map[string]any{"tty": false}))
		p.next() // confirm
		cmd, _ := json.Marshal(command{Command: "message", Identifier: ident, Data: data})
		if err := p.ws.Write(context.Background(), websocket.MessageText, cmd); err != nil {
			t.Fatalf("write: %v", err)
		}
		// The shell still answers (unless the data ended it).
		p.send(ident, terminalMessage{Action: "input", Data: "a\n\x03\necho still-here\n"})
		if out, code := p.output("still-here"); code == nil && !strings.Contains(out, "still-here") {
			t.Fatalf("output %q", out)
		}
	})
}
