package e2e

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// deviceWorld is a user with no key at all, against an emulator whose
// device codes are polled every second (speed 5: 5 s / 5).
func deviceWorld(t *testing.T, cfg localapi.Config) *world {
	t.Helper()
	if cfg.Speed == 0 {
		cfg.Speed = 5
	}
	w := newWorld(t, cfg)
	delete(w.env, "FIBE_API_KEY")
	return w
}

var userCodeRE = regexp.MustCompile(`one-time code: ([A-Z]{4}-[A-Z]{4})`)

// credsFile is where a key is stored without a keyring.
func (w *world) credsFile() string {
	return filepath.Join(w.home, "config", "fibe", "credentials.json")
}

// assertNothingStored fails when a key was stored.
func assertNothingStored(t *testing.T, w *world) {
	t.Helper()
	if data, err := os.ReadFile(w.credsFile()); err == nil && strings.Contains(string(data), w.key) {
		t.Errorf("a key was stored:\n%s", data)
	}
}

// decide plays the user on the emulator's approval page.
func decide(t *testing.T, w *world, code, decision string) {
	t.Helper()
	page, err := http.Get(w.url + "/cli/device?user_code=" + code)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(page.Body)
	page.Body.Close()
	if page.StatusCode != http.StatusOK || !strings.Contains(string(body), code) || !strings.Contains(string(body), "Approve") {
		t.Fatalf("approval page: %d\n%s", page.StatusCode, body)
	}
	resp, err := http.PostForm(w.url+"/cli/device", url.Values{"user_code": {code}, "decision": {decision}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s on the page: %d", decision, resp.StatusCode)
	}
}

// startWebLogin starts `auth login --web` and returns it with the code it shows.
func startWebLogin(t *testing.T, w *world, args ...string) (*proc, string) {
	t.Helper()
	p := w.start(append([]string{"auth", "login", "--web"}, args...)...)
	p.waitFor(t, 15*time.Second, "the one-time code", func(_, stderr string) bool { return userCodeRE.MatchString(stderr) })
	_, stderr := p.output()
	code := userCodeRE.FindStringSubmatch(stderr)[1]
	mustContain(t, "login --web", stderr, w.url+"/cli/device?user_code="+code)
	return p, code
}

// Approved on the page: the key is stored (0600) and used; it never shows.
func TestDeviceLoginApproved(t *testing.T) {
	t.Parallel()
	w := deviceWorld(t, localapi.Config{})
	p, code := startWebLogin(t, w)
	decide(t, w, code, "approve")
	r := p.wait(t, 30*time.Second)
	if r.code != 0 {
		t.Fatalf("login --web: %s", r)
	}
	mustContain(t, "login --web", r.stdout, "Logged in to "+w.url+" as local-dev")
	if strings.Contains(r.stdout+r.stderr, w.key) {
		t.Errorf("the key was printed:\n%s", r)
	}
	info, err := os.Stat(w.credsFile())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", info, err)
	}
	var st struct {
		TokenSource string `json:"token_source"`
	}
	w.jsonOf(&st, "auth", "status")
	if st.TokenSource != w.credsFile() {
		t.Errorf("auth status after login --web: %+v", st)
	}
	w.ok("pg", "list")
}

// `fibe local serve --auto-approve` approves at once; --json prints the
// login document and nothing else on stdout.
func TestDeviceLoginAutoApproveServe(t *testing.T) {
	t.Parallel()
	srv := newUser(t)
	p := srv.start("local", "serve", "--addr", "127.0.0.1:0", "--speed", "5", "--auto-approve")
	exportRE := regexp.MustCompile(`export FIBE_API_URL=(\S+) FIBE_API_KEY=(\S+)`)
	p.waitFor(t, 10*time.Second, "the export line", func(stdout, _ string) bool { return exportRE.MatchString(stdout) })
	stdout, _ := p.output()
	m := exportRE.FindStringSubmatch(stdout)
	defer func() {
		_ = p.cmd.Process.Signal(interrupt)
		p.wait(t, 10*time.Second)
	}()

	w := newUser(t)
	w.url, w.key = m[1], m[2]
	w.env["FIBE_API_URL"] = w.url
	var doc struct {
		APIURL   string `json:"api_url"`
		StoredIn string `json:"stored_in"`
	}
	r := w.jsonOf(&doc, "auth", "login", "--web")
	if doc.APIURL != w.url || doc.StoredIn != w.credsFile() {
		t.Errorf("login --web --json: %+v\n%s", doc, r)
	}
	data, _ := os.ReadFile(w.credsFile())
	if !strings.Contains(string(data), w.key) {
		t.Error("the approved key was not stored")
	}
}

// Denied on the page: one error line, exit 4, nothing stored.
func TestDeviceLoginDenied(t *testing.T) {
	t.Parallel()
	w := deviceWorld(t, localapi.Config{})
	p, code := startWebLogin(t, w)
	decide(t, w, code, "deny")
	r := p.wait(t, 30*time.Second)
	if r.code != 4 || r.stdout != "" {
		t.Fatalf("denied login: %s", r)
	}
	mustContain(t, "denied login", r.stderr, "denied in the browser", "auth login --web")
	assertNothingStored(t, w)
}

// Never approved: the code expires (3 s at speed 300), exit 4, nothing stored.
func TestDeviceLoginExpired(t *testing.T) {
	t.Parallel()
	w := deviceWorld(t, localapi.Config{Speed: 300})
	start := time.Now()
	r := w.run("auth", "login", "--web")
	if r.code != 4 || r.stdout != "" {
		t.Fatalf("expired login: %s", r)
	}
	mustContain(t, "expired login", r.stderr, "expired", "nothing was stored")
	if el := time.Since(start); el < 2*time.Second {
		t.Errorf("gave up after %s, before the code's 3 s were over", el)
	}
	assertNothingStored(t, w)
	// With --json the same error is the error document, exit 4.
	r = w.run("auth", "login", "--web", "--json")
	if r.code != 4 || !strings.Contains(r.stderr, `"DEVICE_CODE_EXPIRED"`) {
		t.Errorf("expired login --json: %s", r)
	}
}

// slow_down widens the interval by 5 s for every later poll: the emulator
// answers the first poll slow_down and any poll sooner than the code's
// (widened) interval slow_down again, so a client that kept polling every
// second would never get the key.
func TestDeviceLoginSlowDown(t *testing.T) {
	t.Parallel()
	w := deviceWorld(t, localapi.Config{DeviceAutoApprove: true, Chaos: "device-slow-down=1"})
	start := time.Now()
	r := w.run("auth", "login", "--web")
	if r.code != 0 {
		t.Fatalf("login --web after slow_down: %s", r)
	}
	// 1 s before the first poll, then 1 s + 5 s before the second.
	if el := time.Since(start); el < 7*time.Second {
		t.Errorf("logged in after %s: the interval did not widen", el)
	}
	data, _ := os.ReadFile(w.credsFile())
	if !strings.Contains(string(data), w.key) {
		t.Error("the approved key was not stored")
	}
}

// Bad input: --web with --with-token is a usage error, nothing sent.
func TestDeviceLoginBadInput(t *testing.T) {
	t.Parallel()
	w := deviceWorld(t, localapi.Config{})
	r := w.run("auth", "login", "--web", "--with-token")
	if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") > 1 {
		t.Errorf("--web --with-token: %s", r)
	}
	if n := len(w.server.Stats().Requests); n != 0 {
		t.Errorf("%d routes were called", n)
	}
}
