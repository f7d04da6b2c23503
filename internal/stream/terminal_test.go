package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi/cable"
)

// shellRun is a terminal session running in the background, driven by a
// test: it types, and reads what the session emits with a bound.
type shellRun struct {
	t        *testing.T
	in       chan Input
	ev       chan Event
	done     chan shellResult
	output   strings.Builder
	renewals []Event
}

type shellResult struct {
	code int
	err  error
}

func startShell(t *testing.T, c *client.Client, opts ShellOptions) *shellRun {
	t.Helper()
	if opts.Playground == "" {
		opts.Playground = "preview"
	}
	// Unbuffered: once typeIn returns, the session has taken the input.
	r := &shellRun{t: t, in: make(chan Input), ev: make(chan Event, 4096), done: make(chan shellResult, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	go func() {
		code, err := Shell(ctx, c, opts, r.in, func(e Event) error {
			r.ev <- e
			return nil
		})
		r.done <- shellResult{code, err}
	}()
	return r
}

func (r *shellRun) typeIn(s string) { r.in <- Input{Data: []byte(s)} }

// until reads events until the output since the last call contains want
// (or, with want "", a renewal arrives); it returns that output.
func (r *shellRun) until(want string) string {
	r.t.Helper()
	start := r.output.Len()
	renewed := len(r.renewals)
	timeout := time.After(10 * time.Second)
	for {
		since := r.output.String()[start:]
		if (want != "" && strings.Contains(since, want)) || (want == "" && len(r.renewals) > renewed) {
			return since
		}
		select {
		case e := <-r.ev:
			switch e.Type {
			case EventOutput:
				r.output.WriteString(e.Data)
			case EventRenewed:
				r.renewals = append(r.renewals, e)
			}
		case res := <-r.done:
			if r.drain() {
				r.done <- res // events were still queued: look at them first
				continue
			}
			r.t.Fatalf("session ended (%d, %v) before %q; output:\n%s", res.code, res.err, want, r.output.String()[start:])
		case <-timeout:
			r.t.Fatalf("timed out waiting for %q; output:\n%s", want, since)
		}
	}
}

// drain takes the events already emitted; it reports whether there were
// any. A session may end before the test has read all it emitted.
func (r *shellRun) drain() bool {
	took := false
	for {
		select {
		case e := <-r.ev:
			took = true
			switch e.Type {
			case EventOutput:
				r.output.WriteString(e.Data)
			case EventRenewed:
				r.renewals = append(r.renewals, e)
			}
		default:
			return took
		}
	}
}

func (r *shellRun) wait() (int, error) {
	r.t.Helper()
	select {
	case res := <-r.done:
		return res.code, res.err
	case <-time.After(10 * time.Second):
		r.t.Fatal("the session did not end")
		return 0, nil
	}
}

func TestShellRunsCommandsAndPassesTheExitCodeOn(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	r := startShell(t, c, ShellOptions{Service: "worker", Cols: 100, Rows: 30})
	r.until("worker:/app$ ")
	r.typeIn("echo hi\r")
	if out := r.until("$ "); out != "echo hi\r\nhi\r\nworker:/app$ " {
		t.Fatalf("output %q", out)
	}
	r.in <- Input{Cols: 132, Rows: 43}
	r.typeIn("env\r")
	if out := r.until("$ "); !strings.Contains(out, "COLUMNS=132") {
		t.Fatalf("the resize did not reach the session: %q", out)
	}
	r.typeIn("exit 3\r")
	if code, err := r.wait(); code != 3 || err != nil {
		t.Fatalf("exit %d, %v; want 3", code, err)
	}
	if st := a.cable.Stats(); st.Connections != 1 || st.Terminals != 1 {
		t.Fatalf("stats %+v", st)
	}
}

// What is typed before the first session is up is held, not dropped.
func TestShellInputBeforeTheFirstConfirmIsKept(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	r := startShell(t, c, ShellOptions{NoTTY: true})
	r.typeIn("echo early\n")
	r.typeIn("exit\n")
	if out := r.until("early"); out != "early\n" {
		t.Fatalf("output %q", out)
	}
	if code, err := r.wait(); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
}

// A burst of 100 expiries causes exactly one recovery; the renewed
// session says so, and the keys typed meanwhile are dropped, not sent to
// the new session.
func TestShellExpiryBurstRenewsOnce(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	hold := make(chan struct{})
	a.beforeCableURL = func(n int64) {
		if n == 2 {
			<-hold // the recovery waits until the test typed during it
		}
	}
	c, _ := a.client(streamKey)
	r := startShell(t, c, ShellOptions{})
	r.until("$ ")
	a.cable.SetFaults(cable.Faults{ExpireBurst: 100})
	r.typeIn("e") // its echo is replaced by the burst
	waitUntil(t, "the recovery's cable URL", func() bool { return a.cableURLCalls.Load() == 2 })
	r.typeIn("lost keys") // while the session renews
	close(hold)
	r.until("")
	if got := r.renewals[0].Dropped; got != len("lost keys") {
		t.Fatalf("renewal reports %d dropped bytes, want %d", got, len("lost keys"))
	}
	r.until("$ ") // the fresh session's prompt
	r.typeIn("echo again\r")
	if out := r.until("$ "); strings.Contains(out, "lost") || !strings.Contains(out, "again\r\n") {
		t.Fatalf("output after renewal %q", out)
	}
	r.typeIn("exit\r")
	if _, err := r.wait(); err != nil {
		t.Fatal(err)
	}
	if st := a.cable.Stats(); st.Connections != 2 || a.cableURLCalls.Load() != 2 || len(r.renewals) != 1 {
		t.Fatalf("connections %d, cable URLs %d, renewals %d; want one recovery", st.Connections, a.cableURLCalls.Load(), len(r.renewals))
	}
}

// Two expiries separated by a confirmed subscription get two recoveries.
func TestShellTwoExpiriesGetTwoRecoveries(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	r := startShell(t, c, ShellOptions{})
	for i := 0; i < 2; i++ {
		r.until("$ ")
		a.cable.SetFaults(cable.Faults{ExpireOnce: true})
		r.typeIn("x")
		r.until("")
	}
	r.until("$ ")
	r.typeIn("exit\r")
	if _, err := r.wait(); err != nil {
		t.Fatal(err)
	}
	if st := a.cable.Stats(); st.Expiries != 2 || st.Connections != 3 || len(r.renewals) != 2 {
		t.Fatalf("expiries %d, connections %d, renewals %d; want 2, 3, 2", st.Expiries, st.Connections, len(r.renewals))
	}
}

// A dropped connection is reconnected (through the loop, with backoff)
// and the fresh session says so.
func TestShellDropRenewsTheSession(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.beforeCableURL = func(n int64) {
		if n == 2 {
			a.cable.SetFaults(cable.Faults{}) // the fault has bitten
		}
	}
	c, trace := a.client(streamKey)
	r := startShell(t, c, ShellOptions{})
	r.until("$ ")
	a.cable.SetFaults(cable.Faults{DropRate: 1})
	r.typeIn("x")
	r.until("")
	r.until("$ ")
	r.typeIn("exit 4\r")
	if code, err := r.wait(); code != 4 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if st := a.cable.Stats(); st.Drops != 1 || st.Connections != 2 {
		t.Fatalf("stats %+v", st)
	}
	if !strings.Contains(trace.String(), "stream: connection dropped") {
		t.Fatalf("trace:\n%s", trace.String())
	}
}

// A terminal whose sessions expire right after every confirmation ends
// with SESSION_EXPIRED after the budget's retries.
func TestShellPersistentExpiryEndsWithSessionExpired(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	a.cable.SetFaults(cable.Faults{ExpireRate: 1})
	c, _ := a.client(streamKey)
	r := startShell(t, c, ShellOptions{})
	_, err := r.wait()
	mustCode(t, err, client.CodeSessionExpired)
	if st, want := a.cable.Stats(), c.Policy().Attempts(); st.Connections != want {
		t.Fatalf("connections = %d, want %d", st.Connections, want)
	}
}

func TestShellChecksThePlaygroundAndService(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	_, err := Shell(context.Background(), c, ShellOptions{Playground: "stopped"}, nil, nil)
	if e := mustCode(t, err, client.CodeConflict); e.Details["status"] != "stopped" || !strings.Contains(e.Message, "stopped") {
		t.Fatalf("error %+v", e)
	}
	_, err = Shell(context.Background(), c, ShellOptions{Playground: "preview", Service: "db"}, nil, nil)
	if e := mustCode(t, err, client.CodeValidation); !strings.Contains(e.Message, "web, worker") {
		t.Fatalf("error %+v", e)
	}
	_, err = Shell(context.Background(), c, ShellOptions{Playground: "nope"}, nil, nil)
	mustCode(t, err, client.CodeNotFound)
	if st := a.cable.Stats(); st.Connections != 0 {
		t.Fatalf("%d connections for refused sessions", st.Connections)
	}
}

// A server that never confirms the subscription: a typed error after the
// budget's attempts, each bounded by the attempt timeout.
func TestShellServerThatNeverConfirms(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cableHandler = func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{client.CableProtocol}})
		if err != nil {
			return
		}
		defer ws.CloseNow()
		_ = ws.Write(r.Context(), websocket.MessageText, []byte(`{"type":"welcome"}`))
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go func() { // subscribe commands go unanswered
			defer cancel()
			for {
				if _, _, err := ws.Read(ctx); err != nil {
					return
				}
			}
		}()
		// Slow pings: the missing confirmation, not liveness, ends each attempt.
		tick := time.NewTicker(300 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// Pings keep the connection alive.
			if ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)) != nil {
				return
			}
		}
	}
	c, trace := a.client(streamKey, func(o *client.Options) { o.Policy.AttemptTimeout = 100 * time.Millisecond })
	defer func() { t.Log(trace.String()) }()
	start := time.Now()
	_, err := Shell(context.Background(), c, ShellOptions{Playground: "preview"}, nil, func(Event) error { return nil })
	e := mustCode(t, err, client.CodeRequestTimeout)
	if !strings.Contains(e.Message, "did not confirm") {
		t.Fatalf("error %+v", e)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("took %s", took)
	}
}

func TestExecRunsOneCommand(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	res, err := Exec(context.Background(), c, ExecRequest{Playground: "preview", Service: "worker", Command: "ls"})
	if err != nil || res.Output != "Dockerfile  jobs  worker.py\n" || res.ExitCode != 0 {
		t.Fatalf("result %+v, %v", res, err)
	}
	res, err = Exec(context.Background(), c, ExecRequest{Playground: "preview", Command: "nope"})
	if err != nil || res.ExitCode != 127 || !strings.Contains(res.Output, "command not found") {
		t.Fatalf("result %+v, %v", res, err)
	}
	_, err = Exec(context.Background(), c, ExecRequest{Playground: "preview", Command: "  "})
	mustCode(t, err, "INVALID_ARGUMENT")
}

// A command whose session expires while it runs is not run again: its
// outcome is unknown, and the error says so.
func TestExecExpiryIsNotRunAgain(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable.SetFaults(cable.Faults{ExpireOnce: true})
	c, _ := a.client(streamKey)
	_, err := Exec(context.Background(), c, ExecRequest{Playground: "preview", Command: "echo once"})
	e := mustCode(t, err, client.CodeSessionExpired)
	if !e.OutcomeUnknown || e.Retryable || !strings.Contains(e.Message, "not run again") {
		t.Fatalf("error %+v", e)
	}
	if st := a.cable.Stats(); st.Terminals != 1 || st.Connections != 1 {
		t.Fatalf("stats %+v: the command was started again", st)
	}
}

func FuzzTerminalFrame(f *testing.F) {
	id := (&terminal{playground: 42}).identifier()
	for _, s := range []string{`{"type":"output","data":"hi"}`, `{"type":"exit","code":3}`, `{"type":"exit"}`,
		`{"type":"output","data":"\udfff"}`, `{"status":"session_expired"}`, `{"type":"exit","code":"x"}`, `[]`} {
		b, _ := json.Marshal(map[string]any{"identifier": id, "message": json.RawMessage(s)})
		if !json.Valid([]byte(s)) {
			b = []byte(s)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, ok := parseFrame(data, id)
		if !ok || fr.kind != frameMessage {
			return
		}
		var got []Event
		term := &terminal{playground: 42, emit: func(e Event) error { got = append(got, e); return nil }}
		_, err := term.message(fr.message)
		var exit exited
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("message error %v", err)
		}
		for _, e := range got {
			if e.Type == EventExit && e.Code == nil {
				t.Fatal("exit event without a code")
			}
		}
	})
}

// BenchmarkExec is one command's round trip over the terminal channel on
// loopback: the playground lookup, a cable URL, the handshake, the
// subscription, the output and the exit code.
func BenchmarkExec(b *testing.B) {
	a := newStreamAPI(b, streamAPIConfig{ping: time.Hour})
	c, _ := a.client(streamKey)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Exec(context.Background(), c, ExecRequest{Playground: "preview", Command: "echo hi"}); err != nil {
			b.Fatal(err)
		}
	}
}

// A command may carry a secret: the debug trace masks it.
func TestExecTraceMasksTheCommand(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, trace := a.client(streamKey)
	res, err := Exec(context.Background(), c, ExecRequest{Playground: "preview", Command: "echo hunter2-secret"})
	if err != nil || res.Output != "hunter2-secret\n" {
		t.Fatalf("result %+v, %v", res, err)
	}
	out := trace.String()
	if strings.Contains(out, "hunter2") || !strings.Contains(out, `"command":"[REDACTED]"`) {
		t.Fatalf("trace:\n%s", out)
	}
}

// The end of input typed while the session renews (a script's stdin ended
// then) is not dropped: the renewed session gets it and ends, so the
// process exits instead of waiting forever.
func TestShellEndOfInputDuringRenewalIsKept(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	hold := make(chan struct{})
	a.beforeCableURL = func(n int64) {
		if n == 2 {
			<-hold // the recovery waits until stdin has ended
		}
	}
	c, trace := a.client(streamKey)
	r := startShell(t, c, ShellOptions{NoTTY: true})
	r.typeIn("echo one\n")
	r.until("one\n")
	a.cable.SetFaults(cable.Faults{ExpireOnce: true})
	r.typeIn("echo two\n") // its output is replaced by session_expired
	waitUntil(t, "the recovery's cable URL", func() bool { return a.cableURLCalls.Load() == 2 })
	r.in <- Input{Data: []byte{endOfInput}} // stdin ends while the session renews
	close(hold)
	if code, err := r.wait(); code != 0 || err != nil {
		t.Fatalf("exit %d, %v; want the renewed session to end with 0", code, err)
	}
	if st := a.cable.Stats(); st.Connections != 2 {
		t.Fatalf("connections %d, want 2", st.Connections)
	}
	if !strings.Contains(trace.String(), "sending the end of input to the renewed session") {
		t.Errorf("trace:\n%s", trace.String())
	}
}

// A client that stalls (a loaded machine: here its output is slow to
// write) is not a silent server: frames read while it was stalled are
// applied before silence is judged, so the session is never dropped under
// it, nor the output it already received lost.
func TestShellStalledClientKeepsItsSession(t *testing.T) {
	// Margins a loaded machine keeps: the server pings every 250 ms, so
	// liveness is about half a second, and the stall is longer than that.
	a := newStreamAPI(t, streamAPIConfig{ping: 250 * time.Millisecond})
	c, trace := a.client(streamKey)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(trace.String())
		}
	})
	in := make(chan Input)
	out := make(chan string, 64)
	renewed := make(chan Event, 8)
	done := make(chan shellResult, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	go func() {
		code, err := Shell(ctx, c, ShellOptions{Playground: "preview", NoTTY: true, PingInterval: 500 * time.Millisecond}, in,
			func(e Event) error {
				switch e.Type {
				case EventOutput:
					time.Sleep(1200 * time.Millisecond) // the stall: over two liveness intervals
					out <- e.Data
				case EventRenewed:
					renewed <- e
				}
				return nil
			})
		done <- shellResult{code, err}
	}()
	var got strings.Builder
	for i := 0; i < 4; i++ {
		word := fmt.Sprintf("round%d", i)
		select {
		case in <- Input{Data: []byte("echo " + word + "\n")}:
		case res := <-done:
			t.Fatalf("the session ended (%d, %v) before %s", res.code, res.err, word)
		}
		deadline := time.After(10 * time.Second)
		for !strings.Contains(got.String(), word) {
			select {
			case s := <-out:
				got.WriteString(s)
			case e := <-renewed:
				t.Fatalf("a stalled client dropped its session (renewed, %d bytes dropped); output so far %q", e.Dropped, got.String())
			case res := <-done:
				t.Fatalf("the session ended (%d, %v) before %s; output %q", res.code, res.err, word, got.String())
			case <-deadline:
				t.Fatalf("no %s in %q", word, got.String())
			}
		}
	}
	in <- Input{Data: []byte("exit 5\n")}
	select {
	case res := <-done:
		if res.code != 5 || res.err != nil {
			t.Fatalf("exit %d, %v; want 5", res.code, res.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the session did not end")
	}
	if st := a.cable.Stats(); st.Connections != 1 {
		t.Fatalf("%d connections, want 1", st.Connections)
	}
}

// Two pings read together (this process was stalled while they came) are
// not the server's period: a first gap that short waits for a second gap
// to confirm it, instead of shrinking liveness to nothing and dropping a
// connection that pings on time.
func TestPingsReadTogetherDoNotShrinkLiveness(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	var conns atomic.Int64
	a.cableHandler = func(w http.ResponseWriter, r *http.Request) {
		conns.Add(1)
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{client.CableProtocol}})
		if err != nil {
			return
		}
		defer ws.CloseNow()
		ctx := r.Context()
		write := func(v any) {
			b, _ := json.Marshal(v)
			_ = ws.Write(ctx, websocket.MessageText, b)
		}
		write(map[string]any{"type": "welcome"})
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var sub struct{ Identifier string }
		_ = json.Unmarshal(data, &sub)
		write(map[string]any{"type": "confirm_subscription", "identifier": sub.Identifier})
		write(map[string]any{"type": "ping", "message": 1})
		write(map[string]any{"type": "ping", "message": 2}) // at once: as if read late together
		for i := 0; i < 3; i++ {
			time.Sleep(400 * time.Millisecond) // the server's own period
			write(map[string]any{"type": "ping", "message": 3 + i})
		}
		write(map[string]any{"identifier": sub.Identifier, "message": map[string]any{"type": "output", "data": "done\n"}})
		write(map[string]any{"identifier": sub.Identifier, "message": map[string]any{"type": "exit", "code": 0}})
		_, _, _ = ws.Read(ctx) // until the client leaves
	}
	c, trace := a.client(streamKey)
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(trace.String())
		}
	})
	// Liveness starts at 1 s, the server pings every 400 ms: margins a
	// loaded machine keeps. Before the fix, the two pings read together
	// made it 10 ms, and the connection was dropped 20 ms later.
	r := startShell(t, c, ShellOptions{NoTTY: true, PingInterval: time.Second})
	r.until("done\n")
	if code, err := r.wait(); code != 0 || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	if n := conns.Load(); n != 1 || len(r.renewals) != 0 {
		t.Fatalf("%d connections, %d renewals: pings read together shrank liveness", n, len(r.renewals))
	}
}
