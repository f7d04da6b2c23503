//go:build unix

package e2e

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// fibe console, the real binary: the login token is single-use and only
// the cookie opens routes (assets included), a foreign Host is refused, a
// POST without the CSRF token is refused, the API key is in no page or
// asset, and Ctrl-C stops it cleanly (exit 0).
func TestConsoleGuards(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_API_URL"] = "local"
	w.env["FIBE_LOCAL_SPEED"] = "50"
	p := w.start("console", "--addr", "127.0.0.1:0")
	var login string
	p.waitFor(t, 20*time.Second, "the console URL", func(stdout, _ string) bool {
		login = regexp.MustCompile(`http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+`).FindString(stdout)
		return login != ""
	})
	base := login[:strings.Index(login, "/?token=")]
	noRedirect := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(c *http.Client, u, host string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", u, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}

	for _, path := range []string{"/", "/assets/console.js", "/events/playgrounds", "/streams/url?kind=logs&playground=1"} {
		if resp, _ := get(noRedirect, base+path, ""); resp.StatusCode != 401 {
			t.Errorf("GET %s without a cookie: %d, want 401", path, resp.StatusCode)
		}
	}
	if resp, _ := get(noRedirect, login, "evil.example:80"); resp.StatusCode/100 != 4 {
		t.Errorf("a foreign Host got %d, want 4xx", resp.StatusCode)
	}

	// The first visit trades the token for a cookie and drops it from the URL.
	resp, _ := get(noRedirect, login, "")
	cookie := resp.Header.Get("Set-Cookie")
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/" {
		t.Fatalf("login: %d to %q, want 303 to /", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, attr := range []string{"HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(cookie, attr) {
			t.Errorf("session cookie %q lacks %s", cookie, attr)
		}
	}
	if resp, _ := get(noRedirect, login, ""); resp.StatusCode != 401 || resp.Header.Get("Set-Cookie") != "" {
		t.Errorf("second use of the token: %d with cookie %q, want 401 and none", resp.StatusCode, resp.Header.Get("Set-Cookie"))
	}

	jar, _ := cookiejar.New(nil)
	u, _ := url.Parse(base)
	jar.SetCookies(u, (&http.Response{Header: http.Header{"Set-Cookie": {cookie}}}).Cookies())
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second, CheckRedirect: noRedirect.CheckRedirect}
	resp, page := get(c, base+"/", "")
	if resp.StatusCode != 200 {
		t.Fatalf("GET / with the cookie: %d", resp.StatusCode)
	}
	if resp, _ := get(c, base+"/", "attacker.example:"+u.Port()); resp.StatusCode/100 != 4 {
		t.Errorf("a foreign Host with the cookie got %d, want 4xx", resp.StatusCode)
	}
	_, js := get(c, base+"/assets/console.js", "")
	for what, body := range map[string]string{"the page": page, "the bundle": js, "the cookie": cookie} {
		if strings.Contains(body, localapi.DefaultAPIKey) {
			t.Errorf("the API key is in %s", what)
		}
	}

	// Non-GET without the CSRF token: 403, whatever the Origin; with it: through.
	post := func(token, origin string) int {
		req, _ := http.NewRequest("POST", base+"/playgrounds/1/actions/rollout", strings.NewReader("idempotency_key=0123456789abcdef0123456789abcdef"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if token != "" {
			req.Header.Set("X-CSRF-Token", token)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post("", ""); st != 403 {
		t.Errorf("POST without CSRF: %d, want 403", st)
	}
	if st := post("", base); st != 403 {
		t.Errorf("POST without CSRF from the console's own Origin: %d, want 403", st)
	}
	if st := post("wrong", ""); st != 403 {
		t.Errorf("POST with a wrong CSRF token: %d, want 403", st)
	}
	csrf := regexp.MustCompile(`<meta name="csrf-token" content="([0-9a-f]+)">`).FindStringSubmatch(page)
	if csrf == nil {
		t.Fatal("no csrf-token meta in the page")
	}
	if st := post(csrf[1], ""); st == 403 || st == 401 {
		t.Errorf("POST with the CSRF token: %d", st)
	}

	_ = p.cmd.Process.Signal(interrupt)
	r := p.wait(t, 15*time.Second)
	if r.code != 0 {
		t.Fatalf("Ctrl-C: %s, want exit 0", r)
	}
	if strings.Contains(r.stdout+r.stderr, localapi.DefaultAPIKey) {
		t.Error("the API key was printed")
	}
}

// Bad input: a non-loopback --addr is one line and exit 2, nothing served.
func TestConsoleRefusesNonLoopback(t *testing.T) {
	t.Parallel()
	w := newUser(t)
	w.env["FIBE_API_URL"] = "local"
	r := w.run("console", "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, "loopback") || strings.Count(strings.TrimSpace(r.stderr), "\n") > 2 {
		t.Fatalf("want exit 2 and one line naming loopback, got %s", r)
	}
}
