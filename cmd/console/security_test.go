package console

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// get fetches a URL with the logged-in client, without following redirects.
func (fx *fixture) get(rawURL string) (*http.Response, string) {
	fx.t.Helper()
	c := *fx.http
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(rawURL)
	if err != nil {
		fx.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

// TestLoginRedirectsOnlyWithinTheConsole: a login URL whose path a browser
// would read as another host redirects to the console's own list.
func TestLoginRedirectsOnlyWithinTheConsole(t *testing.T) {
	fx := startConsole(t, quiet)
	token := fx.run.LoginURL()[strings.Index(fx.run.LoginURL(), "?token="):]
	resp, _ := fx.get(fx.run.BaseURL() + "//evil.example/" + token + "&x=1")
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: status %d, want 303", resp.StatusCode)
	}
	if loc := resp.Header.Get("Location"); loc != "/" {
		t.Fatalf("login redirected to %q, want / (a path of the console)", loc)
	}
}

func TestLoginRedirectKeepsTheConsolePath(t *testing.T) {
	fx := startConsole(t, quiet)
	token := fx.run.LoginURL()[strings.Index(fx.run.LoginURL(), "?token="):]
	resp, _ := fx.get(fx.run.BaseURL() + "/playgrounds/7" + token + "&panes=logs")
	if loc := resp.Header.Get("Location"); loc != "/playgrounds/7?panes=logs" {
		t.Fatalf("login redirected to %q, want /playgrounds/7?panes=logs", loc)
	}
}

// TestSecurityHeaders: pages carry a CSP with the session's nonce, the
// preview origin as the only frame source, and may be framed by nothing;
// the preview listener may be framed by the console only, answers only to
// its own address; /favicon.ico is no 404 on either.
func TestSecurityHeaders(t *testing.T) {
	fx := startConsole(t, quiet)
	fx.runningPlayground("hdr")
	fx.login()
	resp, body := fx.get(fx.run.BaseURL() + "/playgrounds/hdr")
	if resp.StatusCode != 200 {
		t.Fatalf("page: %d", resp.StatusCode)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	nonce := metaContent(body, "csp-nonce")
	preview := fx.run.PreviewBaseURL()
	if nonce == "" || preview == "" || preview == fx.run.BaseURL() {
		t.Fatalf("nonce %q, preview origin %q (console %s)", nonce, preview, fx.run.BaseURL())
	}
	for _, want := range []string{"default-src 'self'", "script-src 'self' 'nonce-" + nonce + "'", "style-src 'self' 'nonce-" + nonce + "'", "frame-src " + preview + ";", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the page's CSP lacks %q: %s", want, csp)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(strings.ReplaceAll(csp, "style-src-attr 'unsafe-inline'", ""), "unsafe-inline") {
		t.Errorf("the page's CSP allows inline scripts or style elements: %s", csp)
	}
	if !strings.Contains(body, `<script nonce="`+nonce+`">`) {
		t.Error("the page's inline script does not carry the nonce")
	}
	if xfo := resp.Header.Get("X-Frame-Options"); xfo != "DENY" {
		t.Errorf("X-Frame-Options %q, want DENY", xfo)
	}
	if !strings.Contains(body, `src="`+preview+`/_preview/hdr/"`) || !strings.Contains(body, `sandbox="allow-scripts allow-forms allow-same-origin"`) {
		t.Error("the preview iframe is not the preview listener's page in a sandbox")
	}

	// The preview listener.
	presp, pbody := fx.get(preview + "/_preview/hdr/")
	if presp.StatusCode != 200 || !strings.Contains(pbody, "hdr") {
		t.Fatalf("preview: %d", presp.StatusCode)
	}
	pcsp := presp.Header.Get("Content-Security-Policy")
	if !strings.HasPrefix(pcsp, "frame-ancestors ") || !strings.Contains(pcsp, fx.run.BaseURL()) || strings.Contains(pcsp, preview) {
		t.Errorf("the preview's CSP %q: want frame-ancestors of the console's origin only", pcsp)
	}
	if resp, _ := fx.get(fx.run.BaseURL() + "/_preview/hdr/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the console's own origin serves the preview: %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", preview+"/_preview/hdr/", nil)
	req.Host = "evil.example"
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("the preview listener answered another Host: %v %v", r.StatusCode, err)
	} else {
		r.Body.Close()
	}

	for _, base := range []string{fx.run.BaseURL(), preview} {
		if r, _ := fx.get(base + "/favicon.ico"); r.StatusCode != http.StatusNoContent {
			t.Errorf("%s/favicon.ico: %d, want 204", base, r.StatusCode)
		}
	}
}

func metaContent(page, name string) string {
	marker := `<meta name="` + name + `" content="`
	i := strings.Index(page, marker)
	if i < 0 {
		return ""
	}
	rest := page[i+len(marker):]
	return rest[:strings.IndexByte(rest, '"')]
}

// TestSessionIdleExpiry: a session whose tab watches a page is not idle;
// once it made no request and held no stream for the idle timeout, it is
// gone.
func TestSessionIdleExpiry(t *testing.T) {
	const idle = 300 * time.Millisecond
	idleTimeout = idle
	t.Cleanup(func() { idleTimeout = 0 })
	fx := startConsole(t, quiet)
	fx.login()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fx.sse(ctx, "/events/playgrounds")
	waitFor(t, bound, "the tab's stream", func() bool { return fx.run.Pollers() == 1 })
	time.Sleep(2 * idle) // the idle time must pass: nothing to wait on
	if r, _ := fx.get(fx.run.BaseURL() + "/"); r.StatusCode != http.StatusOK {
		t.Fatalf("a session with an open stream answered %d after the idle timeout, want 200", r.StatusCode)
	}
	cancel()
	waitFor(t, bound, "the stream to end", func() bool { return fx.run.Pollers() == 0 })
	time.Sleep(2 * idle)
	if r, _ := fx.get(fx.run.BaseURL() + "/"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("an idle session answered %d, want 401", r.StatusCode)
	}
}
