package console

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
)

// bound is how long any wait of these tests may take: generous, since a
// pass is fast anyway and a shared machine may be very busy.
const bound = 60 * time.Second

// idleTimeout is the consoles' session idle timeout in tests: long enough
// for any test but the one that lets a session expire, which waits it out.
var idleTimeout time.Duration

// tabLimit bounds one test's whole use of its tab.
const tabLimit = 4 * time.Minute

// One browser serves every test of this binary (tabs are cheap, browsers
// are not on a shared machine).
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	dir    string
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browser.cancel != nil {
		browser.cancel()
	}
	if browser.dir != "" {
		os.RemoveAll(browser.dir)
	}
	os.Exit(code)
}

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needBrowser returns the shared headless browser. Without chromium the
// test is skipped, except in CI, where it fails.
func needBrowser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed (CI installs it: apt-get install -y chromium)")
		}
		t.Skip("browser test skipped: chromium is not installed (apt-get install -y chromium)")
	}
	browser.once.Do(func() {
		browser.dir, browser.err = os.MkdirTemp("", "fibe-console-chromium-")
		if browser.err != nil {
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.NoSandbox, // as root in CI
			chromedp.Headless,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(browser.dir),
			chromedp.WindowSize(1280, 1000),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("disable-default-apps", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("no-proxy-server", true),
			chromedp.Flag("mute-audio", true),
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		browser.ctx = ctx
		browser.cancel = func() { cancelCtx(); cancelAlloc() }
		// No timeout on the first run: its context's end would stop the browser.
		browser.err = chromedp.Do(ctx)
	})
	if browser.err != nil {
		t.Fatalf("starting chromium: %v", browser.err)
	}
	return browser.ctx
}

// newTab opens a tab of the shared browser, closed with the test; every
// action in it is bounded by tabLimit.
func newTab(t testing.TB) context.Context {
	t.Helper()
	// Whatever the page's Content-Security-Policy refused (the browser
	// reports it as a security message) is a failure of the test.
	var mu sync.Mutex
	var refused []string
	listen := chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && e.Entry != nil && e.Entry.Source == cdplog.EntrySourceSecurity {
			mu.Lock()
			refused = append(refused, e.Entry.Text)
			mu.Unlock()
		}
	})
	tab, closeTab := chromedp.NewContext(needBrowser(t), listen)
	t.Cleanup(closeTab)
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range refused {
			t.Errorf("the browser refused something: %s", r)
		}
	})
	if err := chromedp.Do(tab); err != nil { // opens the tab
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(tab, tabLimit)
	t.Cleanup(cancel)
	return ctx
}

// fixture is one `fibe --api-url local console` run in process, in an
// isolated home.
type fixture struct {
	t    testing.TB
	run  *Running
	key  string
	http *http.Client // logged-in client (cookie jar)
	csrf string
	out  *bytes.Buffer
	// stop ends the console (as Ctrl-C does) and returns how long run
	// took to return; the test's cleanup does it otherwise.
	stop func() time.Duration
}

func startConsole(t testing.TB, poll time.Duration) *fixture {
	t.Helper()
	return startConsoleAt(t, poll, "50")
}

// startStreamingConsole is startConsole for tests of the streaming panes:
// the emulator runs 5 times faster than real time, not 50, so that its
// logs (a line every 200ms of its time) do not flood a busy machine's
// browser with 250 lines a second.
func startStreamingConsole(t testing.TB) *fixture {
	t.Helper()
	return startConsoleAt(t, 0, "5")
}

func startConsoleAt(t testing.TB, poll time.Duration, speed string) *fixture {
	t.Helper()
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": "local", "FIBE_LOCAL_SPEED": speed, "FIBE_LOCAL_SEED": "1", "FIBE_POLL_INTERVAL": "20ms"})
	ios, _, out, _ := iostreams.Test()
	f := factory.New(ios, []string{"console"})
	ready := make(chan *Running, 1)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		done <- run(ctx, &options{Seams: f.Seams(), serverClient: f.ServerClient, addr: "127.0.0.1:0", poll: poll, idle: idleTimeout, ready: func(r *Running) { ready <- r }})
	}()
	fx := &fixture{t: t, key: localapi.DefaultAPIKey, out: out}
	select {
	case fx.run = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("console did not start: %v", err)
	case <-time.After(bound):
		cancel()
		t.Fatalf("console did not start within %s", bound)
	}
	var stopOnce sync.Once
	var took time.Duration
	fx.stop = func() time.Duration {
		stopOnce.Do(func() {
			start := time.Now()
			cancel()
			select {
			case err := <-done:
				took = time.Since(start)
				if err != nil {
					t.Errorf("console ended with %v", err)
				}
			case <-time.After(bound):
				took = bound
				t.Errorf("console did not stop within %s of its context ending", bound)
			}
		})
		return took
	}
	t.Cleanup(func() { fx.stop() })
	jar, _ := cookiejar.New(nil)
	fx.http = &http.Client{Jar: jar, Timeout: bound}
	return fx
}

// login exchanges the token with the Go HTTP client (the browser's tab
// logs in with loginBrowser instead: the token is single-use).
func (fx *fixture) login() {
	fx.t.Helper()
	resp, err := fx.http.Get(fx.run.LoginURL())
	if err != nil {
		fx.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		fx.t.Fatalf("login: %d %s", resp.StatusCode, body)
	}
	fx.csrf = metaCSRF(string(body))
}

func metaCSRF(page string) string {
	const marker = `<meta name="csrf-token" content="`
	i := strings.Index(page, marker)
	if i < 0 {
		return ""
	}
	rest := page[i+len(marker):]
	return rest[:strings.IndexByte(rest, '"')]
}

// api calls the emulator behind the console directly, as another client.
func (fx *fixture) api(method, path string, body any) (int, map[string]any) {
	fx.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, strings.TrimSuffix(fx.run.APIURL, "/")+path, rd)
	req.Header.Set("Authorization", "Bearer "+fx.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fx.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func (fx *fixture) chaos(spec string) {
	fx.t.Helper()
	if st, body := fx.api("POST", "/_local/chaos", map[string]any{"spec": spec}); st != 200 {
		fx.t.Fatalf("chaos %q: %d %v", spec, st, body)
	}
}

func (fx *fixture) stats() localapi.Stats {
	fx.t.Helper()
	req, _ := http.NewRequest("GET", strings.TrimSuffix(fx.run.APIURL, "/")+"/_local/stats", nil)
	req.Header.Set("Authorization", "Bearer "+fx.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fx.t.Fatal(err)
	}
	defer resp.Body.Close()
	var st localapi.Stats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		fx.t.Fatal(err)
	}
	return st
}

// waitCableOpen waits until the emulator holds n stream connections open:
// a fault armed while a connection being retired is still open could hit
// that one instead of the pane's.
func (fx *fixture) waitCableOpen(n int) {
	fx.t.Helper()
	waitFor(fx.t, bound, fmt.Sprintf("%d open cable connections at the emulator", n), func() bool {
		c := fx.stats().Cable
		return c != nil && c.Open == n
	})
}

// runningPlayground creates a playground and rolls it out; it returns its id.
func (fx *fixture) runningPlayground(name string) int64 {
	fx.t.Helper()
	st, body := fx.api("POST", "/api/playgrounds", map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web", "marquee_id": "local"}})
	if st != 201 && st != 202 {
		fx.t.Fatalf("create %s: %d %v", name, st, body)
	}
	st, body = fx.api("POST", "/api/playgrounds/"+url.PathEscape(name)+"/operations", map[string]any{"action_type": "rollout"})
	if st/100 != 2 {
		fx.t.Fatalf("rollout %s: %d %v", name, st, body)
	}
	// The rollout's operation ends after the status turns running: an
	// action before its end would be refused (409 operation_in_progress).
	if rid, _ := body["request_id"].(string); rid != "" {
		waitFor(fx.t, bound, "the rollout of "+name+" to end", func() bool {
			_, op := fx.api("GET", "/api/async_requests/"+url.PathEscape(rid), nil)
			return op["status"] == "success" || op["status"] == "error"
		})
	}
	var id int64
	waitFor(fx.t, bound, "playground "+name+" running", func() bool {
		_, pg := fx.api("GET", "/api/playgrounds/"+url.PathEscape(name), nil)
		if n, ok := pg["id"].(float64); ok {
			id = int64(n)
		}
		return pg["status"] == "running"
	})
	return id
}

// waitFor polls cond every 20ms until it holds, failing after limit.
func waitFor(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// openPage logs the tab in and opens path.
func (fx *fixture) openPage(ctx context.Context, path string) {
	fx.t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(fx.run.LoginURL())); err != nil {
		fx.t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fx.run.BaseURL()+path), chromedp.WaitReady("body")); err != nil {
		fx.t.Fatal(err)
	}
}

// eval runs JS in the tab and returns its value.
func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
	return v
}

// evalFrame runs JS in the document of the page's one iframe (an origin
// of its own, which the page's scripts cannot reach), in an isolated world
// of the test: it shares the frame's DOM, not its globals.
func evalFrame[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	var out T
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		tree, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return err
		}
		if n := len(tree.FrameTree.ChildFrames); n != 1 {
			return fmt.Errorf("the page has %d frames, want 1", n)
		}
		frame := tree.FrameTree.ChildFrames[0].Frame.ID
		world, err := cdp.Call(ctx, tg, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: "fibe-test"})
		if err != nil {
			return err
		}
		res, err := cdp.Call(ctx, tg, runtime.Evaluate, runtime.EvaluateParams{Expression: js, ContextID: world.ExecutionContextID, ReturnByValue: ptrTo(true)})
		if err != nil {
			return err
		}
		if res.ExceptionDetails != nil {
			return fmt.Errorf("%s", res.ExceptionDetails.Text)
		}
		return json.Unmarshal(res.Result.Value, &out)
	}))
	if err != nil {
		t.Fatalf("evaluating %s in the page's frame: %v", js, err)
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }

// waitJS waits until the JS expression is true in the tab. The page
// itself re-evaluates it every 20ms (one call to the browser per wait, not
// one per check); a navigation that ends the page's script context is
// waited through.
func waitJS(t testing.TB, ctx context.Context, limit time.Duration, js string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			dump, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.__fibe || {})`))
			t.Fatalf("timed out after %s waiting for %s (recorded: %s)", limit, js, dump)
		}
		chunk := min(left, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`new Promise((resolve) => {
  const end = Date.now() + %d;
  const check = () => {
    let ok = false;
    try { ok = !!(%s); } catch (e) {}
    if (ok || Date.now() >= end) resolve(ok); else setTimeout(check, 20);
  };
  check();
})`, chunk.Milliseconds(), js), chromedp.EvalAwaitPromise))
		if ok {
			return
		}
		if err != nil {
			if ctx.Err() != nil {
				t.Fatalf("waiting for %s: %v", js, err)
			}
			time.Sleep(20 * time.Millisecond) // a page being replaced
		}
	}
}

// recordEvents installs counters of the console's events in the tab
// (window.__fibe[name] = list of details).
const recordEvents = `(() => {
  window.__fibe = {};
  for (const n of ["fibe:protected-stream-blocked", "fibe:stream-recovery", "fibe:stream-recovered", "fibe:refresh-deferred", "fibe:refresh-applied", "previewload"]) window.__fibe[n] = [];
  for (const n of ["fibe:protected-stream-blocked", "fibe:stream-recovery", "fibe:stream-recovered", "fibe:refresh-deferred", "fibe:refresh-applied"]) {
    document.addEventListener(n, (e) => window.__fibe[n].push(e.detail || {}));
  }
  document.addEventListener("load", (e) => { if (e.target && e.target.id === "preview-frame") window.__fibe.previewload.push(e.target.getAttribute("src")); }, true);
  return true;
})()`

func count(name string) string { return fmt.Sprintf(`window.__fibe[%q].length`, name) }
