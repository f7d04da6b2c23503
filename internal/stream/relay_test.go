package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi/cable"
)

// terminalID is the identifier the console subscribes playground 42's
// terminal with.
const terminalID = `{"channel":"PlaygroundTerminalChannel","playground_id":42}`

// relayUntilEnd does what the console's browser does with a Relay: open a
// connection, read it until it ends, and open the next one when told to,
// until the stream ends. It returns the connections opened and the
// stream's error.
func relayUntilEnd(t *testing.T, r *Relay, identifier string) (int, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	opened := 0
	for {
		rc, err := r.Open(ctx, identifier)
		if err != nil {
			return opened, err
		}
		opened++
		for {
			_, err := rc.Next(ctx)
			if err == nil {
				continue
			}
			rc.Close()
			if !rc.Reopen() {
				return opened, err
			}
			break
		}
	}
}

// A connection dropped right after every confirmation: the relay's
// reopens stop at the CLI's budget and end in the CLI's error, although
// every connection was confirmed.
func TestRelayDropsAfterEveryConfirmEndLikeTheCLI(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	a.cable.SetFaults(cable.Faults{DropAfter: 50 * time.Millisecond})
	c, _ := a.client(streamKey)

	_, cliErr := startShell(t, c, ShellOptions{}).wait()
	cli := mustCode(t, cliErr, client.CodeNetwork)
	cliConns := a.cable.Stats().Connections
	if want := c.Policy().Attempts(); cliConns != want {
		t.Fatalf("the CLI's shell made %d connections, want %d", cliConns, want)
	}

	opened, err := relayUntilEnd(t, NewRelay(c, 42, false, 0), terminalID)
	e := mustCode(t, err, cli.Code)
	if got := a.cable.Stats().Connections - cliConns; got != cliConns || opened != cliConns {
		t.Fatalf("the relay made %d connections (%d opened), want %d as the CLI", got, opened, cliConns)
	}
	if st := a.cable.Stats(); st.Subscriptions+st.Terminals == 0 {
		t.Fatalf("no subscription was confirmed: %+v", st)
	}
	if !strings.Contains(e.Message, "lost after 3 reconnects") {
		t.Fatalf("message %q", e.Message)
	}
}

// Progress gives the budget back: a log stream whose lines flow between
// drops is reopened for as long as it keeps making progress.
func TestRelayProgressGivesTheBudgetBack(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{line: 5 * time.Millisecond})
	a.cable.SetFaults(cable.Faults{DropAfter: 60 * time.Millisecond})
	c, _ := a.client(streamKey)
	r := NewRelay(c, 42, true, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	want := c.Policy().Attempts() + 3
	for i := 0; i < want; i++ {
		rc, err := r.Open(ctx, `{"channel":"PlaygroundLogsChannel","playground_id":42}`)
		if err != nil {
			t.Fatalf("reopen %d of a stream making progress: %v", i, err)
		}
		for {
			if _, err := rc.Next(ctx); err != nil {
				if !rc.Reopen() {
					t.Fatalf("connection %d: final %v", i, err)
				}
				break
			}
		}
		rc.Close()
	}
}

// With the marquee's breaker open (the CLI's own failures opened it), the
// relay opens nothing: CIRCUIT_OPEN, and no connection reaches the cable
// server.
func TestRelayHonoursTheBreaker(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// The marquee's breaker learns the playground's marquee, then opens on
	// the failures of the playground's reads.
	if _, _, err := c.Playgrounds.Get(ctx, "42"); err != nil {
		t.Fatal(err)
	}
	a.playground503.Store(true)
	for i := 0; i < 2; i++ {
		_, _, _ = c.Playgrounds.Get(ctx, "42")
	}
	a.playground503.Store(false)
	_, cliErr := startShell(t, c, ShellOptions{Playground: "42"}).wait()
	mustCode(t, cliErr, client.CodeCircuitOpen)

	opened, err := relayUntilEnd(t, NewRelay(c, 42, false, 0), terminalID)
	e := mustCode(t, err, client.CodeCircuitOpen)
	if e.Resource != "marquee/prod-eu" || opened != 0 {
		t.Fatalf("resource %q, %d opened", e.Resource, opened)
	}
	if st := a.cable.Stats(); st.Connections != 0 {
		t.Fatalf("the relay reached the cable server with the breaker open: %+v", st)
	}
}

// A silent connection (no ping, no message) is dropped after two ping
// intervals and the far side is told to open another.
func TestRelayJudgesSilence(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Hour})
	c, _ := a.client(streamKey)
	r := NewRelay(c, 42, false, 100*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rc, err := r.Open(ctx, terminalID)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	start := time.Now()
	for {
		_, err = rc.Next(ctx)
		if err != nil {
			break
		}
	}
	took := time.Since(start)
	if !rc.Reopen() || !strings.Contains(err.Error(), "two ping intervals") {
		t.Fatalf("reopen %v, err %v", rc.Reopen(), err)
	}
	// Two intervals of 100ms; a loaded machine may add its own delay, never
	// remove any.
	if took < 200*time.Millisecond || took > 10*time.Second {
		t.Fatalf("silence judged after %s, want about 200ms", took)
	}
	// The next connection is opened after the silent one was counted.
	rc2, err := r.Open(ctx, terminalID)
	if err != nil {
		t.Fatal(err)
	}
	defer rc2.Close()
	if ev, err := rc2.Next(ctx); err != nil || ev.Kind != RelayConfirmed {
		t.Fatalf("after a silent connection: %+v, %v", ev, err)
	}
}

// The first subscription refused is final; a refused renewal is a failed
// attempt, and refusals end the stream with SESSION_EXPIRED.
func TestRelayRejects(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	a.cable.SetFaults(cable.Faults{RejectRate: 1})
	_, err := relayUntilEnd(t, NewRelay(c, 42, false, 0), terminalID)
	mustCode(t, err, client.CodeForbidden)

	a.cable.SetFaults(cable.Faults{})
	r := NewRelay(c, 42, false, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rc, err := r.Open(ctx, terminalID)
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := rc.Next(ctx); err != nil || ev.Kind != RelayConfirmed {
		t.Fatalf("first event %+v, %v", ev, err)
	}
	rc.Close()
	a.cable.SetFaults(cable.Faults{RejectRate: 1})
	_, err = relayUntilEnd(t, r, terminalID)
	mustCode(t, err, client.CodeSessionExpired)
}

// A terminal's progress is time: a subscription that stayed up one ping
// interval gives the budget back even when its frames never pause (a
// command printing all the time), so its drops never spend the budget.
func TestRelayBusyTerminalMakesProgress(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{line: 2 * time.Millisecond})
	a.cable.SetFaults(cable.Faults{DropAfter: 600 * time.Millisecond})
	c, _ := a.client(streamKey)
	// Terminal rules (no message is progress) over a channel whose
	// messages never pause.
	r := NewRelay(c, 42, false, 200*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := 0; i < c.Policy().Attempts()+2; i++ {
		rc, err := r.Open(ctx, `{"channel":"PlaygroundLogsChannel","playground_id":42}`)
		if err != nil {
			t.Fatalf("reopen %d of a terminal that stayed up: %v", i, err)
		}
		for {
			if _, err := rc.Next(ctx); err != nil {
				if !rc.Reopen() {
					t.Fatalf("connection %d: final %v", i, err)
				}
				break
			}
		}
		rc.Close()
	}
}
