package console

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fibegg/fibe/internal/resource"
)

// TestBrowserPlayspecsPage: the playspecs page lists the emulator's
// playspecs as the description's table (a row per playspec, id
// playspec_<id>), the header links to it, and a resource with no page is
// a 404.
func TestBrowserPlayspecsPage(t *testing.T) {
	fx := startConsole(t, quiet)
	ctx := newTab(t)
	fx.openPage(ctx, "/")
	waitJS(t, ctx, bound, `!!document.querySelector('header nav a[href="/playspecs"]')`)
	if err := chromedp.Do(ctx, chromedp.Click(`header nav a[href="/playspecs"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, bound, `document.title.startsWith("Playspecs")`)
	waitJS(t, ctx, bound, `!!document.getElementById("playspec_1")`)
	row := eval[string](t, ctx, `document.getElementById("playspec_1").innerText`)
	if !strings.Contains(row, "web") {
		t.Errorf("row playspec_1 reads %q, want the playspec web", row)
	}
	headers := eval[string](t, ctx, `Array.from(document.querySelectorAll("#playspecs-table th")).map(th => th.innerText).join(",")`)
	var want []string
	for _, c := range resource.Playspecs().Columns {
		want = append(want, c.Header)
	}
	if headers != strings.Join(want, ",") {
		t.Errorf("headers %q, want the description's %q", headers, strings.Join(want, ","))
	}
	eval[bool](t, ctx, `fetch("/marquees-nope").then(r => { window.__nope = r.status }), true`)
	waitJS(t, ctx, bound, `window.__nope !== undefined`)
	if st := eval[int](t, ctx, `window.__nope`); st != 404 {
		t.Errorf("a resource without a page answered %d, want 404", st)
	}
}
