package console

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi/cable"
	"github.com/fibegg/fibe/internal/stream"
)

// The console's streams under the CLI's rules (docs/contract.md §6, §7):
// every connection the relay opens is admitted by the marquee's breaker
// and counted on the stream's budget, and a silent API connection is
// dropped after two ping intervals. Cable connections are counted at the
// emulator.

// streamPane opens a playground page with one streaming pane, live.
func streamPane(t *testing.T, fx *fixture, id int64, pane string) (context.Context, string) {
	t.Helper()
	ctx := newTab(t)
	return ctx, streamPaneIn(t, ctx, fx, id, pane)
}

// streamPaneIn is streamPane in a given tab.
func streamPaneIn(t *testing.T, ctx context.Context, fx *fixture, id int64, pane string) string {
	t.Helper()
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=%s", id, pane))
	el := fmt.Sprintf(`document.getElementById(%q)`, pane)
	waitJS(t, ctx, bound, el+`.dataset.state === "live"`)
	fx.waitCableOpen(1)
	t.Cleanup(func() {
		if t.Failed() {
			st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](el+`.dataset.state + " / " + (`+el+`.dataset.code || "") + " / " + `+el+`.querySelector("[data-`+pane+`-target=status]").textContent`))
			t.Logf("at the end: cable %+v, pane %q", fx.stats().Cable, st)
		}
	})
	return el
}

// breakerState is the state of one breaker of the console's client.
func breakerState(t *testing.T, c *client.Client, resource string) string {
	t.Helper()
	bs, err := c.Breakers()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if b.Resource == resource {
			return b.State
		}
	}
	return "closed"
}

// TestBrowserStreamHonoursTheBreaker: with the marquee's breaker open, the
// log pane's reconnect after a drop makes no cable connection and the
// page shows CIRCUIT_OPEN, as `fibe pg logs --follow` would.
func TestBrowserStreamHonoursTheBreaker(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("breaker")
	ctx, pane := streamPane(t, fx, id, "logs")

	// The marquee goes down: the console's reads of the playground fail
	// until its breaker opens.
	const outage = "outage=marquee/local@0s+1h"
	fx.chaos(outage)
	rctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	waitFor(t, bound, "the breaker of marquee/local to open", func() bool {
		if breakerState(t, fx.run.Client, "marquee/local") == "open" {
			return true
		}
		_, _, _ = fx.run.Client.Playgrounds.Get(rctx, fmt.Sprint(id))
		return false
	})
	before, emuBefore := fx.run.CableConnections(), fx.stats().Cable.Connections
	fx.chaos(outage + ",cable-drop=1") // the next log line drops the pane's connection
	waitJS(t, ctx, bound, pane+`.dataset.state === "error"`)
	if code := eval[string](t, ctx, pane+`.dataset.code`); code != client.CodeCircuitOpen {
		t.Fatalf("the pane ended with code %q, want %s", code, client.CodeCircuitOpen)
	}
	status := eval[string](t, ctx, pane+`.querySelector("[data-logs-target=status]").textContent`)
	if want := "CIRCUIT_OPEN: circuit breaker open for marquee/local"; !strings.Contains(status, want) {
		t.Fatalf("the pane says %q, want it to name %q", status, want)
	}
	if n, emu := fx.run.CableConnections()-before, fx.stats().Cable.Connections-emuBefore; n != 0 || emu != 0 {
		t.Fatalf("%d new cable connections (%d at the emulator's stats) with the breaker open, want 0", n, emu)
	}
	if s := breakerState(t, fx.run.Client, "marquee/local"); s != "open" {
		t.Fatalf("the breaker is %s at the end, the test proves nothing", s)
	}
}

// TestBrowserStreamDropsAfterEveryConfirm: a terminal whose connection
// drops right after each confirmed subscription is reopened until the
// CLI's budget is spent, not once per confirm, and the page ends with the
// error the CLI's shell ends with under the same fault.
func TestBrowserStreamDropsAfterEveryConfirm(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("dropper")
	ctx, pane := streamPane(t, fx, id, "terminal")
	retries := fx.run.Client.Policy().Retries()

	before := fx.run.CableConnections()
	fx.chaos("cable-drop=@300ms") // every connection drops 300ms after it opened
	waitJS(t, ctx, bound, pane+`.dataset.state === "error"`)
	code := eval[string](t, ctx, pane+`.dataset.code`)
	// The live connection dropped, then one reopen per retry: the stream
	// had 1 + retries connections under the fault, as the CLI's.
	if n := fx.run.CableConnections() - before; n != int64(retries) {
		t.Fatalf("the pane made %d new cable connections, want %d (the budget's retries)", n, retries)
	}

	// The CLI's shell (the code `fibe pg shell` runs) under the same fault,
	// with the same client.
	before = fx.run.CableConnections()
	sctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	_, err := stream.Shell(sctx, fx.run.Client, stream.ShellOptions{Playground: fmt.Sprint(id)}, nil, func(stream.Event) error { return nil })
	cli, ok := client.AsError(err)
	if !ok {
		t.Fatalf("the CLI's shell ended with %v", err)
	}
	if n := fx.run.CableConnections() - before; n != int64(retries+1) {
		t.Fatalf("the CLI's shell made %d cable connections, want %d", n, retries+1)
	}
	if code != cli.Code {
		t.Fatalf("the page ended with %q, the CLI with %q (%s)", code, cli.Code, cli.Message)
	}
	status := eval[string](t, ctx, pane+`.querySelector("[data-terminal-target=status]").textContent`)
	if !strings.Contains(status, fmt.Sprintf("lost after %d reconnects", retries)) {
		t.Fatalf("the pane says %q", status)
	}
}

// freezable makes the tab's websockets freezable: while
// window.__fibeFrozen is true their frames are not delivered to the page,
// as when the console's process or the link to it stalls.
const freezable = `(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    set onmessage(f) { super.onmessage = (e) => { if (!window.__fibeFrozen) f(e); }; }
    get onmessage() { return super.onmessage; }
  };
})()`

// TestBrowserStreamLiveness: when the API's connection goes silent (no
// pings), the pane leaves "live" within two ping intervals and reconnects;
// so it does when nothing comes from the console itself (its relay's pings
// included), judged by the page.
func TestBrowserStreamLiveness(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("frozen")
	ctx := newTab(t)
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: freezable})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	pane := streamPaneIn(t, ctx, fx, id, "terminal")
	// The emulator pings every 3s, the interval the relay uses until it has
	// seen two pings, and then the one it measures.
	interval := cable.DefaultPingInterval
	rows := `document.querySelector("#terminal .xterm-rows").textContent`

	// silent runs freeze, checks that the pane leaves live within two
	// intervals (the last frame came at most one interval before the
	// freeze; a busy machine adds its own delay: a tolerant bound, far under
	// "forever"), then thaw, and checks that it is live again on a new API
	// connection, saying why it reconnected.
	silent := func(what, why string, freeze, thaw func()) {
		t.Helper()
		before := fx.run.CableConnections()
		start := time.Now()
		freeze()
		waitJS(t, ctx, bound, pane+`.dataset.state !== "live"`)
		took := time.Since(start)
		t.Logf("the pane left live %s after %s (two intervals: %s)", took.Round(time.Millisecond), what, 2*interval)
		if limit := 2*interval + 3*time.Second; took > limit {
			t.Fatalf("the pane left live %s after %s, want within %s", took, what, limit)
		}
		waitJS(t, ctx, bound, rows+fmt.Sprintf(`.includes(%q)`, why))
		thaw()
		waitJS(t, ctx, bound, pane+`.dataset.state === "live"`)
		if fx.run.CableConnections() <= before {
			t.Fatalf("live again after %s without a new cable connection", what)
		}
	}
	silent("the API's pings stopped", "nothing from the server for two ping intervals",
		func() { fx.chaos("cable-noping=true") }, func() { fx.chaos("") })
	silent("the console went silent", "nothing from the console for two ping intervals",
		func() { eval[bool](t, ctx, `window.__fibeFrozen = true`) }, func() { eval[bool](t, ctx, `!(window.__fibeFrozen = false)`) })
	if r := eval[string](t, ctx, pane+`.dataset.recoveries`); r != "0" {
		t.Errorf("a silent connection counted as a session_expired recovery: data-recoveries = %s", r)
	}
}
