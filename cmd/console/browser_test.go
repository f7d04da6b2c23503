package console

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// previewPane is the #preview pane as the server renders it.
func previewPane(src string) string {
	return fmt.Sprintf(`<section id="preview" class="card"><h2>Preview</h2><iframe id="preview-frame" src="%s" sandbox="allow-scripts allow-forms allow-same-origin" title="playground preview" data-controller="preview" data-ready="false" data-session-protected="true" data-ready-version=""></iframe></section>`, src)
}

func replaceStream(target, html string) string {
	return fmt.Sprintf(`<turbo-stream action="replace" target="%s"><template>%s</template></turbo-stream>`, target, html)
}

const refreshStream = `<turbo-stream action="refresh"></turbo-stream>`

// TestBrowserProtectedPreview: 20 same-URL updates (morph refreshes and
// stream replaces of the preview pane) leave the iframe's document
// running; a src change loads the new URL.
func TestBrowserProtectedPreview(t *testing.T) {
	fx := startConsole(t, quiet)
	id := fx.runningPlayground("demo")
	ref := fmt.Sprint(id)
	ctx := newTab(t)
	// The preview alone: streaming panes only cost a busy machine time.
	fx.openPage(ctx, "/playgrounds/"+ref+"?panes=preview")
	eval[bool](t, ctx, recordEvents)
	frame := `document.getElementById("preview-frame")`
	waitJS(t, ctx, bound, frame+`.dataset.ready === "true" && `+frame+`.dataset.readyVersion !== ""`)
	version := eval[string](t, ctx, frame+`.dataset.readyVersion`)
	src := fx.run.PreviewBaseURL() + "/_preview/demo/"
	if got := eval[string](t, ctx, frame+`.getAttribute("src")`); got != src {
		t.Fatalf("the preview is %q, want %q (the preview listener, an origin of its own)", got, src)
	}
	// A marker and half-typed text inside the iframe's document (its own
	// origin: the page cannot reach it, the test can).
	evalFrame[bool](t, ctx, `(() => { document.documentElement.dataset.marker = "kept"; document.getElementById("note").value = "typed inside"; return true })()`)
	marker := func() bool { return evalFrame[bool](t, ctx, `document.documentElement.dataset.marker === "kept"`) }
	waitSSE(t, fx, ref)
	streams := fx.run.EventStreams()

	for i := 1; i <= 20; i++ {
		if i%2 == 1 {
			fx.run.Publish(ref, refreshStream)
		} else {
			fx.run.Publish(ref, replaceStream("preview", previewPane(src)))
		}
		waitJS(t, ctx, bound, fmt.Sprintf("%s === %d", count("fibe:protected-stream-blocked"), i))
	}
	checks := map[string]string{
		"no second load":           count("previewload") + ` === 0`,
		"same ready version":       frame + `.dataset.readyVersion === ` + fmt.Sprintf("%q", version),
		"sources morph and stream": `window.__fibe["fibe:protected-stream-blocked"].filter(d => d.source === "morph").length === 10 && window.__fibe["fibe:protected-stream-blocked"].filter(d => d.source === "stream").length === 10`,
		"detail id and src":        `window.__fibe["fibe:protected-stream-blocked"].every(d => d.id === "preview-frame" && d.src === ` + fmt.Sprintf("%q", src) + `)`,
		"one iframe in #preview":   `document.querySelectorAll("#preview iframe").length === 1`,
	}
	for what, js := range checks {
		if !eval[bool](t, ctx, js) {
			t.Errorf("after 20 same-URL updates: %s: false (%s)", what, js)
		}
	}
	if !marker() {
		t.Error("after 20 same-URL updates: the marker inside the preview is gone")
	}
	if v := evalFrame[string](t, ctx, `document.getElementById("note").value`); v != "typed inside" {
		t.Errorf("after 20 same-URL updates: the text typed inside the preview is %q", v)
	}
	// The page's event stream is the element the morphs kept: reopening it
	// would lose what is published meanwhile.
	if n := fx.run.EventStreams() - streams; n != 0 {
		t.Errorf("the page opened %d new event streams during 20 updates, want 0", n)
	}

	// A pane the page lacks arrives with an update of the layout that holds
	// the iframe: it is inserted in place; the layout and the iframe stay.
	eval[bool](t, ctx, `(document.getElementById("panes").__kept = true)`)
	fx.run.Publish(ref, replaceStream("panes", `<div class="layout" id="panes"><section id="extra" class="card"><h2>Extra</h2></section>`+previewPane(src)+`</div>`))
	waitJS(t, ctx, bound, `document.getElementById("extra") !== null`)
	for what, js := range map[string]string{
		"the layout element stays":         `document.getElementById("panes").__kept === true`,
		"the new pane is in the layout":    `document.getElementById("extra").parentElement.id === "panes"`,
		"the iframe did not load again":    count("previewload") + ` === 0`,
		"one more blocked update (stream)": count("fibe:protected-stream-blocked") + ` === 21`,
	} {
		if !eval[bool](t, ctx, js) {
			t.Errorf("appending a pane: %s: false (%s)", what, js)
		}
	}
	if !marker() {
		t.Error("appending a pane: the marker inside the preview is gone")
	}

	// A src change goes through and loads the new URL.
	fx.run.Publish(ref, replaceStream("preview", previewPane(src+"?v=2")))
	waitJS(t, ctx, bound, count("previewload")+` === 1`)
	waitJS(t, ctx, bound, frame+`.dataset.ready === "true" && `+frame+`.dataset.readyVersion !== `+fmt.Sprintf("%q", version))
	if got := evalFrame[string](t, ctx, `location.search`); got != "?v=2" {
		t.Errorf("after a src change the preview shows %q, want ?v=2", got)
	}
	if marker() {
		t.Error("the marker survived a src change: the new URL did not load")
	}
	if n := eval[int](t, ctx, count("fibe:protected-stream-blocked")); n != 21 {
		t.Errorf("a src change was blocked: %d blocked events, want 21", n)
	}
}

// waitSSE waits until the page's event stream watches its playground: a
// stream published before would reach no one. (The list page that the
// login lands on has an event stream and a poller of its own.)
func waitSSE(t *testing.T, fx *fixture, ref string) {
	t.Helper()
	waitFor(t, bound, "the page to watch its playground", func() bool { return fx.run.Watchers(ref) >= 1 })
}

// quiet is the poll interval of tests that publish every Turbo Stream
// themselves: the poller polls once, when the page starts watching, and
// sends nothing of its own (its streams are the poller tests' business).
const quiet = time.Hour

// TestBrowserDeferredRefresh: a half-typed settings form survives 20
// background refreshes; the deferred refresh applies after submit.
func TestBrowserDeferredRefresh(t *testing.T) {
	fx := startConsole(t, quiet)
	id := fx.runningPlayground("form")
	ref := fmt.Sprint(id)
	ctx := newTab(t)
	fx.openPage(ctx, "/playgrounds/"+ref+"?panes=none")
	eval[bool](t, ctx, recordEvents)
	waitSSE(t, fx, ref)
	if err := chromedp.Do(ctx, chromedp.SendKeys("#settings_env", "HALF=typed")); err != nil {
		t.Fatal(err)
	}
	field := `document.getElementById("settings_env")`
	for i := 1; i <= 20; i++ {
		fx.run.Publish(ref, refreshStream)
		waitJS(t, ctx, bound, fmt.Sprintf("%s === %d", count("fibe:refresh-deferred"), i))
		if i == 10 {
			// Leave the field: still dirty, so still deferred.
			eval[bool](t, ctx, field+`.blur(), true`)
		}
	}
	if v := eval[string](t, ctx, field+`.value`); v != "HALF=typed" {
		t.Fatalf("the half-typed text was lost: %q", v)
	}
	if n := eval[int](t, ctx, count("fibe:refresh-applied")); n != 0 {
		t.Fatalf("%d refreshes applied while the form was dirty", n)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`form#settings button[type="submit"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, bound, count("fibe:refresh-applied")+` === 1`)
	waitFor(t, bound, "the overrides saved", func() bool {
		_, pg := fx.api("GET", "/api/playgrounds/"+ref, nil)
		env, _ := pg["env_overrides"].(map[string]any)
		return env["HALF"] == "typed"
	})
}

// TestBrowserLogsOneShotRecovery: a burst of 100 session_expired on the
// logs pane gives exactly one reconnect (data-recoveries = 1, the
// emulator's cable server accepts 2 connections); a second expiry after the
// confirmation gives one more. Log lines survive.
func TestBrowserLogsOneShotRecovery(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("logs")
	ctx := newTab(t)
	// The logs alone: the emulator's expiry faults hit the next message of
	// any subscription, the terminal's greeting included.
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=logs", id))
	eval[bool](t, ctx, recordEvents)
	pane := `document.getElementById("logs")`
	lines := `document.querySelectorAll("#logs .log-line").length`
	waitJS(t, ctx, bound, pane+`.dataset.state === "live" && `+lines+` > 5`)
	checkOneShot(t, fx, ctx, pane, lines, nil)
}

// TestBrowserTerminalOneShotRecovery is the same rule on the terminal.
func TestBrowserTerminalOneShotRecovery(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("term")
	ctx := newTab(t)
	// The terminal alone: the emulator's expiry faults hit the next message
	// of any subscription, and logs flow all the time.
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=terminal", id))
	eval[bool](t, ctx, recordEvents)
	pane := `document.getElementById("terminal")`
	waitJS(t, ctx, bound, `["live", "rejected"].includes(`+pane+`.dataset.state)`)
	if st := eval[string](t, ctx, pane+`.dataset.state`); st != "live" {
		t.Fatalf("the terminal pane is %q, want live", st)
	}
	// Type a command: its output is the terminal's scrollback to keep.
	typeInTerminal(t, ctx, "echo before-expiry")
	text := `document.querySelector("#terminal .xterm-rows").textContent`
	waitJS(t, ctx, bound, text+`.includes("before-expiry")`)
	// Output makes the next message, which carries the armed expiry.
	poke := func() { typeInTerminal(t, ctx, "echo poke") }
	checkOneShot(t, fx, ctx, pane, `(`+text+`.includes("before-expiry") ? 1 : 0)`, poke)
}

// typeInTerminal types a command line into the xterm: the text as one
// input (as an IME would; synthetic key events would reach xterm twice,
// as keypress and input), then Enter.
func typeInTerminal(t *testing.T, ctx context.Context, line string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Focus("#terminal textarea"),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: line})
			return err
		}),
		chromedp.KeyEvent("\r"),
	)
	if err != nil {
		t.Fatal(err)
	}
}

// checkOneShot arms a burst of 100 expiries, then one more expiry, and
// checks the reconnect counts; kept is an expression that must not
// decrease (lines or scrollback kept across recoveries).
func checkOneShot(t *testing.T, fx *fixture, ctx context.Context, pane, kept string, poke func()) {
	t.Helper()
	if poke == nil {
		poke = func() {}
	}
	t.Cleanup(func() {
		if t.Failed() {
			st, _ := chromedp.Run(ctx, chromedp.Evaluate[string](pane+`.dataset.state + " recoveries " + `+pane+`.dataset.recoveries`))
			t.Logf("at the end: cable %+v, pane state %q", fx.stats().Cable, st)
		}
	})
	before := fx.run.CableConnections()
	keptBefore := eval[int](t, ctx, kept)
	fx.waitCableOpen(1)
	fx.chaos("cable-expire-burst=100")
	poke()
	waitJS(t, ctx, bound, count("fibe:stream-recovered")+` === 1`)
	if r := eval[string](t, ctx, pane+`.dataset.recoveries`); r != "1" {
		t.Fatalf("data-recoveries = %s after a burst of 100 expiries, want 1", r)
	}
	if n := eval[int](t, ctx, count("fibe:stream-recovery")); n != 1 {
		t.Fatalf("%d fibe:stream-recovery events after a burst, want 1", n)
	}
	if n := fx.run.CableConnections() - before; n != 1 {
		t.Fatalf("the emulator accepted %d new cable connections after the burst, want 1 (2 in all for the pane)", n)
	}
	if n := eval[int](t, ctx, kept); n < keptBefore {
		t.Fatalf("the pane lost content across the recovery: %d before, %d after", keptBefore, n)
	}
	// A second expiry after the confirmation: one more recovery, once the
	// connection the first one retired is gone.
	fx.waitCableOpen(1)
	fx.chaos("cable-expire=once")
	poke()
	waitJS(t, ctx, bound, count("fibe:stream-recovered")+` === 2`)
	if r := eval[string](t, ctx, pane+`.dataset.recoveries`); r != "2" {
		t.Fatalf("data-recoveries = %s after a second expiry, want 2", r)
	}
	if n := fx.run.CableConnections() - before; n != 2 {
		t.Fatalf("the emulator accepted %d new cable connections after the second expiry, want 2", n)
	}
}

// TestBrowserRolloutIdempotent: a rollout from the page under
// commit-then-502 creates one operation (the client's retry replays it); a
// double submit of one rendered form is one operation, and a resubmission
// of an old form after the outcome replays at the API.
func TestBrowserRolloutIdempotent(t *testing.T) {
	fx := startConsole(t, 0)
	id := fx.runningPlayground("roll")
	ctx := newTab(t)
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=preview", id))
	waitSSE(t, fx, fmt.Sprint(id))
	key := func() string {
		return eval[string](t, ctx, `document.querySelector('form[data-action-form="rollout"] input[name="idempotency_key"]').value`)
	}
	firstKey := key()

	fx.chaos("commit-then-502=1")
	s0 := fx.stats()
	if err := chromedp.Do(ctx, chromedp.Click(`form[data-action-form="rollout"] button`)); err != nil {
		t.Fatal(err)
	}
	op := `document.getElementById("operation")`
	waitJS(t, ctx, bound, op+`.dataset.key === "`+firstKey+`" && `+op+`.dataset.state === "succeeded"`)
	s1 := fx.stats()
	if d := s1.Mutations - s0.Mutations; d != 1 {
		t.Errorf("a rollout under commit-then-502 executed %d mutations, want 1", d)
	}
	if d := s1.Faults["commit-then-502"] - s0.Faults["commit-then-502"]; d != 1 {
		t.Errorf("commit-then-502 fired %d times, want 1", d)
	}
	if d := s1.Replays - s0.Replays; d < 1 {
		t.Errorf("the retry after the lost answer was not a replay (%d replays)", d)
	}
	text := eval[string](t, ctx, op+`.textContent`)
	if !strings.Contains(text, "replayed") || !strings.Contains(text, "polls") {
		t.Errorf("#operation does not show the replay and the polls: %q", text)
	}

	// Once the outcome is known the forms carry a fresh key.
	waitJS(t, ctx, bound, `document.querySelector('form[data-action-form="rollout"] input[name="idempotency_key"]').value !== "`+firstKey+`"`)
	fx.chaos("")
	secondKey := key()
	s2 := fx.stats()
	// A double submit: two POSTs of the same rendered form.
	eval[bool](t, ctx, `(() => {
	  const form = document.querySelector('form[data-action-form="rollout"]');
	  const token = document.querySelector('meta[name="csrf-token"]').content;
	  const post = () => fetch(form.action, { method: "POST", body: new FormData(form), headers: { "X-CSRF-Token": token, Accept: "text/vnd.turbo-stream.html" } });
	  post(); post();
	  return true;
	})()`)
	waitJS(t, ctx, bound, op+`.dataset.key === "`+secondKey+`" && `+op+`.dataset.state === "succeeded" && `+op+`.dataset.submits === "2"`)
	s3 := fx.stats()
	if d := s3.Mutations - s2.Mutations; d != 1 {
		t.Errorf("a double submit executed %d mutations, want 1", d)
	}

	// The same old form once more, after its outcome: the API replays it.
	eval[bool](t, ctx, `(() => {
	  const token = document.querySelector('meta[name="csrf-token"]').content;
	  const body = new URLSearchParams({ idempotency_key: "`+secondKey+`" });
	  fetch(location.pathname.replace(/\/?$/, "") + "/actions/rollout", { method: "POST", body, headers: { "X-CSRF-Token": token } });
	  return true;
	})()`)
	waitJS(t, ctx, bound, op+`.dataset.submits === "3" && `+op+`.dataset.state === "succeeded"`)
	s4 := fx.stats()
	if d := s4.Mutations - s3.Mutations; d != 0 {
		t.Errorf("resubmitting a finished form executed %d mutations, want 0 (a replay)", d)
	}
	if d := s4.Replays - s3.Replays; d != 1 {
		t.Errorf("resubmitting a finished form gave %d replays, want 1", d)
	}
}

// TestBrowserActionErrorShowsCodeAndRequestID: a failed action shows the
// shared presenter's code, message and request id in #operation.
func TestBrowserActionErrorShowsCodeAndRequestID(t *testing.T) {
	fx := startConsole(t, 0)
	if st, body := fx.api("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": "bad", "playspec_id": "broken", "marquee_id": "local"}}); st/100 != 2 {
		t.Fatalf("create: %d %v", st, body)
	}
	ctx := newTab(t)
	fx.openPage(ctx, "/playgrounds/bad?panes=none")
	if err := chromedp.Do(ctx, chromedp.Click(`form[data-action-form="rollout"] button`)); err != nil {
		t.Fatal(err)
	}
	op := `document.getElementById("operation")`
	waitJS(t, ctx, bound, op+`.dataset.state === "failed"`)
	code := eval[string](t, ctx, op+`.querySelector(".error").dataset.code`)
	rid := eval[string](t, ctx, op+`.querySelector(".error").dataset.requestId`)
	text := eval[string](t, ctx, op+`.querySelector(".error").textContent`)
	if code == "" || !strings.HasPrefix(rid, "req_") || !strings.Contains(text, code) || !strings.Contains(text, "(request "+rid+")") {
		t.Fatalf("the error line lacks its code or request id: code %q, request %q, text %q", code, rid, text)
	}
}

// TestBrowserOperationNeverGoesBack: a render of #operation older than the
// one shown (a refreshed page fetched before the last streamed update, a
// late stream) never replaces it; a newer one does.
func TestBrowserOperationNeverGoesBack(t *testing.T) {
	fx := startConsole(t, quiet)
	id := fx.runningPlayground("order")
	ref := fmt.Sprint(id)
	ctx := newTab(t)
	fx.openPage(ctx, "/playgrounds/"+ref+"?panes=none")
	waitSSE(t, fx, ref)
	if err := chromedp.Do(ctx, chromedp.Click(`form[data-action-form="rollout"] button`)); err != nil {
		t.Fatal(err)
	}
	op := `document.getElementById("operation")`
	waitJS(t, ctx, bound, op+`.dataset.state === "succeeded"`)
	var seq int
	if _, err := fmt.Sscan(eval[string](t, ctx, op+`.dataset.seq`), &seq); err != nil || seq < 1 {
		t.Fatalf("#operation has no data-seq: %v", err)
	}
	pane := func(state string, seq int) string {
		return fmt.Sprintf(`<section id="operation" class="card" data-key="k" data-state="%s" data-submits="1" data-seq="%d"><h2>Operation</h2><p>%s</p></section>`, state, seq, state)
	}
	// A stale replace, then a stale morph, then a marker: streams render in
	// order, so once the marker is in, both stale ones were handled.
	fx.run.Publish(ref, replaceStream("operation", pane("running", seq-1)))
	fx.run.Publish(ref, `<turbo-stream action="replace" method="morph" target="operation"><template>`+pane("submitted", seq-1)+`</template></turbo-stream>`)
	fx.run.Publish(ref, `<turbo-stream action="append" target="panes"><template><div id="after-stale"></div></template></turbo-stream>`)
	waitJS(t, ctx, bound, `document.getElementById("after-stale") !== null`)
	if st := eval[string](t, ctx, op+`.dataset.state`); st != "succeeded" {
		t.Fatalf("an older render of #operation replaced it: state %q, want succeeded", st)
	}
	fx.run.Publish(ref, `<turbo-stream action="replace" method="morph" target="operation"><template>`+pane("failed", seq+1)+`</template></turbo-stream>`)
	waitJS(t, ctx, bound, op+`.dataset.state === "failed"`)
	fx.run.Publish(ref, replaceStream("operation", pane("running", seq+2)))
	waitJS(t, ctx, bound, op+`.dataset.state === "running"`)
}

// TestScreenshot writes the README's screenshot of a playground page when
// FIBE_CONSOLE_SCREENSHOT names the file (docs/console.png from the
// repository root): FIBE_CONSOLE_SCREENSHOT=$PWD/docs/console.png go test
// ./cmd/console -run TestScreenshot. The terminal has run a command.
func TestScreenshot(t *testing.T) {
	out := os.Getenv("FIBE_CONSOLE_SCREENSHOT")
	if out == "" {
		t.Skip("set FIBE_CONSOLE_SCREENSHOT to write the README's screenshot")
	}
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("preview-42")
	ctx := newTab(t)
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d", id))
	if err := chromedp.Do(ctx, chromedp.Click(`form[data-action-form="rollout"] button`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, bound, `document.getElementById("operation").dataset.state === "succeeded"`)
	waitJS(t, ctx, bound, `document.getElementById("terminal").dataset.state === "live"`)
	typeInTerminal(t, ctx, "ls")
	typeInTerminal(t, ctx, "echo hello from the console")
	waitJS(t, ctx, bound, `document.querySelector("#terminal .xterm-rows").textContent.includes("hello from the console")`)
	waitJS(t, ctx, bound, `document.querySelectorAll("#logs .log-line").length > 12 && document.getElementById("preview-frame").dataset.ready === "true"`)
	evalFrame[bool](t, ctx, `(() => { document.getElementById("note").value = "hello from the preview"; return true })()`)
	// A viewport as tall as the page (a capture beyond the viewport leaves
	// the preview's frame, another origin, blank).
	h := eval[int](t, ctx, `document.documentElement.scrollHeight`)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, int64(h))); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserLogsReconnectAfterDrop: a dropped stream (not an expiry) is
// reconnected by the browser with backoff, without counting a recovery,
// and the log resumes after the last line shown.
func TestBrowserLogsReconnectAfterDrop(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("drop")
	ctx := newTab(t)
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d?panes=logs", id))
	eval[bool](t, ctx, recordEvents)
	pane := `document.getElementById("logs")`
	lines := `document.querySelectorAll("#logs .log-line").length`
	waitJS(t, ctx, bound, pane+`.dataset.state === "live" && `+lines+` > 5`)
	before := fx.run.CableConnections()
	fx.chaos("cable-drop=1")
	waitJS(t, ctx, bound, `["reconnecting", "connecting", "closed", "error"].includes(`+pane+`.dataset.state)`)
	fx.chaos("")
	n := eval[int](t, ctx, lines)
	waitJS(t, ctx, bound, pane+`.dataset.state === "live" && `+lines+fmt.Sprintf(` > %d`, n+5))
	if fx.run.CableConnections() <= before {
		t.Fatal("no new cable connection after the drop")
	}
	if r := eval[string](t, ctx, pane+`.dataset.recoveries`); r != "0" {
		t.Errorf("a drop counted as a session_expired recovery: data-recoveries = %s", r)
	}
	// Every line once: the reconnect asked for the lines after the last one.
	dups := eval[int](t, ctx, `(() => { const seen = new Set(); let d = 0; for (const el of document.querySelectorAll("#logs .log-line")) { if (seen.has(el.textContent + el.dataset.seq)) d++; seen.add(el.textContent + el.dataset.seq); } return d })()`)
	if dups != 0 {
		t.Errorf("%d log lines shown twice after the reconnect", dups)
	}
}

// TestBrowserPreviewPlaceholder: a playground that is not running shows a
// placeholder in the preview, never a page of the console (which would
// open a second event stream, terminal and log stream), and it is not
// marked ready.
func TestBrowserPreviewPlaceholder(t *testing.T) {
	fx := startConsole(t, quiet)
	ref := fmt.Sprint(fx.runningPlayground("idle"))
	if st, body := fx.api("POST", "/api/playgrounds/"+ref+"/operations", map[string]any{"action_type": "stop"}); st/100 != 2 {
		t.Fatalf("stop: %d %v", st, body)
	}
	waitFor(t, bound, "the playground stopped", func() bool {
		_, pg := fx.api("GET", "/api/playgrounds/"+ref, nil)
		return pg["status"] == "stopped"
	})
	ctx := newTab(t)
	fx.openPage(ctx, "/playgrounds/"+ref+"?panes=preview")
	waitSSE(t, fx, ref)
	frame := `document.getElementById("preview-frame")`
	waitJS(t, ctx, bound, frame+`.contentDocument === null || `+frame+`.contentDocument.readyState === "complete"`)
	if src := eval[string](t, ctx, `String(`+frame+`.getAttribute("src"))`); src != "null" {
		t.Errorf("the placeholder iframe has src %q", src)
	}
	if doc := eval[string](t, ctx, frame+`.getAttribute("srcdoc") || ""`); !strings.Contains(doc, "not running") {
		t.Errorf("the placeholder iframe shows %q, want its inline placeholder", doc)
	}
	// Had the frame loaded a page of the console, it would watch the
	// playground too.
	waitJS(t, ctx, bound, `document.readyState === "complete"`)
	if n := fx.run.Watchers(ref); n != 1 {
		t.Errorf("%d event streams watch the playground, want 1 (the page's)", n)
	}
	if r := eval[string](t, ctx, frame+`.dataset.ready`); r != "false" {
		t.Errorf("the placeholder is marked ready: data-ready=%q", r)
	}
}

// TestConsoleStopsPromptly: Ctrl-C (the context's end) stops a console
// that a tab is using (event stream, logs and terminal relays) without
// waiting out the HTTP server's grace period.
func TestConsoleStopsPromptly(t *testing.T) {
	fx := startStreamingConsole(t)
	id := fx.runningPlayground("stop")
	ctx := newTab(t)
	fx.openPage(ctx, fmt.Sprintf("/playgrounds/%d", id))
	waitSSE(t, fx, fmt.Sprint(id))
	waitJS(t, ctx, bound, `document.getElementById("logs").dataset.state === "live" && document.getElementById("terminal").dataset.state === "live"`)
	// The HTTP server's grace period is 2s: a stop that waits it out is a
	// stream left open; a prompt one takes milliseconds (7ms measured).
	if took := fx.stop(); took >= 1900*time.Millisecond {
		t.Errorf("the console took %s to stop with a tab open, want well under its 2s grace period", took)
	}
}
