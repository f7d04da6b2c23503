package console

import (
	"strconv"
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
	waitJS(t, ctx, bound, `!!document.querySelector('header a.nav[href="/playspecs"]')`)
	if err := chromedp.Do(ctx, chromedp.Click(`header a.nav[href="/playspecs"]`)); err != nil {
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

// TestBrowserSecretsPageCreate: a secret created from the secrets page
// shows as a row; its value is never rendered back, not after the create
// and not in the page of a refused one, which keeps the key typed.
func TestBrowserSecretsPageCreate(t *testing.T) {
	if _, ok := resource.Lookup("secrets"); !ok {
		t.Skip("secrets are not described yet: the console has no secrets page")
	}
	const value = "s3cret-typed-in-the-browser"
	fx := startConsole(t, quiet)
	ctx := newTab(t)
	fx.openPage(ctx, "/secrets")
	waitJS(t, ctx, bound, `!!document.querySelector("form#new-secret")`)
	if err := chromedp.Do(ctx, chromedp.SendKeys("#field-key", "bad key!"), chromedp.SendKeys("#field-value", value),
		chromedp.Click(`form#new-secret button[type="submit"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, bound, `!!document.querySelector("#api-error .error")`)
	// Refused here (INVALID_ARGUMENT) when the description checks keys,
	// else by the API (VALIDATION_FAILED): either way the form comes back.
	if code := eval[string](t, ctx, `document.querySelector("#api-error .error").dataset.code`); code != "INVALID_ARGUMENT" && code != "VALIDATION_FAILED" {
		t.Errorf("a refused key shows code %q, want INVALID_ARGUMENT or VALIDATION_FAILED", code)
	}
	if got := eval[string](t, ctx, `document.getElementById("field-key").value`); got != "bad key!" {
		t.Errorf("the refused form lost the key typed: %q", got)
	}
	if eval[bool](t, ctx, `document.documentElement.outerHTML.includes(`+jsString(value)+`) || document.getElementById("field-value").value !== ""`) {
		t.Fatal("the refused form renders the value back")
	}
	if err := chromedp.Do(ctx, chromedp.SetValue("#field-key", "DB_URL"), chromedp.SendKeys("#field-value", value),
		chromedp.Click(`form#new-secret button[type="submit"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, bound, `!!document.getElementById("created")`)
	if row := eval[string](t, ctx, `(document.querySelector("#secrets tr[id^=secret_]") || {}).innerText || ""`); !strings.Contains(row, "DB_URL") {
		t.Errorf("no row of DB_URL: %q", row)
	}
	if eval[bool](t, ctx, `document.documentElement.outerHTML.includes(`+jsString(value)+`)`) {
		t.Fatal("the page shows the secret's value")
	}
	if st, body := fx.api("GET", "/api/secrets/DB_URL?reveal=true", nil); st != 200 || body["value"] != value {
		t.Errorf("the secret the API holds: %d %v", st, body)
	}
}

func jsString(s string) string { return strconv.Quote(s) }
