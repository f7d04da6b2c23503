package console

import (
	"fmt"
	"testing"
	"time"
)

// previewPane is the #preview pane as the server renders it.
func previewPane(src string) string {
	return fmt.Sprintf(`<section id="preview" class="card"><h2>Preview</h2><iframe id="preview-frame" src="%s" title="playground preview" data-controller="preview" data-ready="false" data-session-protected="true" data-ready-version=""></iframe></section>`, src)
}

func replaceStream(target, html string) string {
	return fmt.Sprintf(`<turbo-stream action="replace" target="%s"><template>%s</template></turbo-stream>`, target, html)
}

const refreshStream = `<turbo-stream action="refresh"></turbo-stream>`

// TestBrowserProtectedPreview: 20 same-URL updates (morph refreshes and
// stream replaces of the preview pane) leave the iframe's document
// running; a src change loads the new URL.
func TestBrowserProtectedPreview(t *testing.T) {
	fx := startConsole(t, 0)
	id := fx.runningPlayground("demo")
	ref := fmt.Sprint(id)
	ctx := newTab(t, 90*time.Second)
	fx.openPage(ctx, "/playgrounds/"+ref)
	eval[bool](t, ctx, recordEvents)
	frame := `document.getElementById("preview-frame")`
	waitJS(t, ctx, 20*time.Second, frame+`.dataset.ready === "true" && `+frame+`.dataset.readyVersion !== ""`)
	waitJS(t, ctx, 10*time.Second, `document.querySelector("turbo-stream-source").streamSource !== undefined || true`)
	version := eval[string](t, ctx, frame+`.dataset.readyVersion`)
	// A marker and half-typed text inside the iframe's document.
	eval[bool](t, ctx, `(() => { const w = `+frame+`.contentWindow; w.__marker = "kept"; w.document.getElementById("note").value = "typed inside"; return true })()`)
	waitSSE(t, fx, ref)

	src := "/_preview/demo/"
	for i := 1; i <= 20; i++ {
		if i%2 == 1 {
			fx.run.Publish(ref, refreshStream)
		} else {
			fx.run.Publish(ref, replaceStream("preview", previewPane(src)))
		}
		waitJS(t, ctx, 10*time.Second, fmt.Sprintf("%s === %d", count("fibe:protected-stream-blocked"), i))
	}
	checks := map[string]string{
		"no second load":           count("previewload") + ` === 0`,
		"the marker survives":      frame + `.contentWindow.__marker === "kept"`,
		"the typed text survives":  frame + `.contentWindow.document.getElementById("note").value === "typed inside"`,
		"same ready version":       frame + `.dataset.readyVersion === ` + fmt.Sprintf("%q", version),
		"sources morph and stream": `window.__fibe["fibe:protected-stream-blocked"].filter(d => d.source === "morph").length === 10 && window.__fibe["fibe:protected-stream-blocked"].filter(d => d.source === "stream").length === 10`,
		"detail id and src":        `window.__fibe["fibe:protected-stream-blocked"].every(d => d.id === "preview-frame" && d.src === "/_preview/demo/")`,
		"one iframe in #preview":   `document.querySelectorAll("#preview iframe").length === 1`,
	}
	for what, js := range checks {
		if !eval[bool](t, ctx, js) {
			t.Errorf("after 20 same-URL updates: %s: false (%s)", what, js)
		}
	}

	// A src change goes through and loads the new URL.
	fx.run.Publish(ref, replaceStream("preview", previewPane("/_preview/demo/?v=2")))
	waitJS(t, ctx, 10*time.Second, count("previewload")+` === 1`)
	waitJS(t, ctx, 10*time.Second, frame+`.contentWindow.location.search === "?v=2" && `+frame+`.dataset.ready === "true" && `+frame+`.dataset.readyVersion !== `+fmt.Sprintf("%q", version))
	if eval[bool](t, ctx, frame+`.contentWindow.__marker === "kept"`) {
		t.Error("the marker survived a src change: the new URL did not load")
	}
	if n := eval[int](t, ctx, count("fibe:protected-stream-blocked")); n != 20 {
		t.Errorf("a src change was blocked: %d blocked events, want 20", n)
	}
}

// waitSSE waits until the page's SSE connection is watched (a poller runs).
func waitSSE(t *testing.T, fx *fixture, ref string) {
	t.Helper()
	waitFor(t, 10*time.Second, "the page to watch its playground", func() bool { return fx.run.Pollers() >= 1 })
}
