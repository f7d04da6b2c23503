package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

type env struct {
	f               *cmdutil.Factory
	in, out, errOut *bytes.Buffer
	srv             *localapi.Server
	url             string
}

// setup serves the emulator on 127.0.0.1 and points a Factory at it
// through the environment, with no key given and no OS keyring: a key can
// only come from `auth login`.
func setup(t *testing.T) *env {
	t.Helper()
	srv, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url})
	ios, in, out, errOut := iostreams.Test()
	return &env{f: factory.New(ios, nil), in: in, out: out, errOut: errOut, srv: srv, url: url}
}

func (e *env) login(withToken bool) *LoginOptions {
	return &LoginOptions{Seams: e.f.Seams(), ClientWithKey: e.f.ClientWithKey, WithToken: withToken}
}

func (e *env) requests() int {
	n := 0
	for _, byStatus := range e.srv.Stats().Requests {
		for _, c := range byStatus {
			n += c
		}
	}
	return n
}

// Log in with a key on stdin, see it in status (masked, with its source),
// log out; the key never shows, and the file holding it is 0600.
func TestLoginStatusLogout(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	key := localapi.DefaultAPIKey
	e.in.WriteString(key + "\n")
	if err := loginRun(ctx, e.login(true)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.out.String(), "✓ Logged in to "+e.url+" as ") {
		t.Errorf("login stdout %q", e.out)
	}
	stored := strings.TrimSuffix(strings.TrimPrefix(e.errOut.String(), "Key stored in "), " (profile default).\n")
	info, err := os.Stat(stored)
	if err != nil {
		t.Fatalf("login stderr %q: %v", e.errOut, err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", stored, info.Mode().Perm())
	}

	e.out.Reset()
	e.f.IOStreams.SetJSON(true)
	e.f.SetFlags(nil) // a new command: resolve the key again
	if err := statusRun(ctx, &StatusOptions{Seams: e.f.Seams(), APIKey: e.f.APIKey}); err != nil {
		t.Fatal(err)
	}
	var st StatusResult
	if err := json.Unmarshal(e.out.Bytes(), &st); err != nil {
		t.Fatalf("status %s: %v", e.out, err)
	}
	if st.APIURL != e.url || st.TokenSource != stored || st.Token == "" || st.User == nil {
		t.Errorf("status %+v", st)
	}

	e.out.Reset()
	e.f.IOStreams.SetJSON(false)
	if err := logoutRun(ctx, &LogoutOptions{Seams: e.f.Seams()}); err != nil {
		t.Fatal(err)
	}
	if want := "✓ Logged out of " + e.url + " (profile default)\n"; e.out.String() != want {
		t.Errorf("logout stdout %q, want %q", e.out, want)
	}
	e.out.Reset()
	e.errOut.Reset()
	if err := logoutRun(ctx, &LogoutOptions{Seams: e.f.Seams()}); err != nil {
		t.Fatal(err)
	}
	if e.out.Len() != 0 || !strings.HasPrefix(e.errOut.String(), "No stored key for ") {
		t.Errorf("second logout: stdout %q stderr %q", e.out, e.errOut)
	}
	e.f.SetFlags(nil)
	if err := statusRun(ctx, &StatusOptions{Seams: e.f.Seams(), APIKey: e.f.APIKey}); output.ExitCode(err) != output.ExitAuth {
		t.Errorf("status after logout: %v (exit %d)", err, output.ExitCode(err))
	}
	if data, _ := os.ReadFile(stored); strings.Contains(string(data), key) {
		t.Error("the key is still in the file after logout")
	}
}

// A key the API refuses is not stored and not printed.
func TestLoginRefusedKeyIsNotStored(t *testing.T) {
	e := setup(t)
	e.in.WriteString("fibe_wrong_key_0000\n")
	err := loginRun(context.Background(), e.login(true))
	if output.ExitCode(err) != output.ExitAuth {
		t.Fatalf("login with a wrong key: %v (exit %d)", err, output.ExitCode(err))
	}
	if e.out.Len() != 0 || strings.Contains(e.errOut.String(), "fibe_wrong_key") || strings.Contains(err.Error(), "fibe_wrong_key") {
		t.Errorf("the key leaked: stdout %q stderr %q err %v", e.out, e.errOut, err)
	}
	matches, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "*", "*"))
	for _, m := range matches {
		if data, _ := os.ReadFile(m); strings.Contains(string(data), "fibe_wrong_key") {
			t.Errorf("the refused key was stored in %s", m)
		}
	}
}

// Bad input is a usage error and nothing is sent.
func TestLoginBadInputSendsNothing(t *testing.T) {
	for _, c := range []struct {
		name, stdin string
		withToken   bool
		want        string
	}{
		{"not interactive", "", false, "--with-token is required"},
		{"empty", "\n", true, "no API key given"},
		{"spaces", "fibe key\n", true, "an API key has no spaces"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := setup(t)
			e.in.WriteString(c.stdin)
			err := loginRun(context.Background(), e.login(c.withToken))
			if output.ExitCode(err) != output.ExitUsage || err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v (exit %d), want %q", err, output.ExitCode(err), c.want)
			}
			if n := e.requests(); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

// The key of status is masked in both forms.
func TestStatusMasksTheKey(t *testing.T) {
	e := setup(t)
	t.Setenv("FIBE_API_KEY", localapi.DefaultAPIKey)
	if err := statusRun(context.Background(), &StatusOptions{Seams: e.f.Seams(), APIKey: e.f.APIKey}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"API", e.url, "Token source", "env FIBE_API_KEY"} {
		if !strings.Contains(e.out.String(), want) {
			t.Errorf("%q not in\n%s", want, e.out)
		}
	}
	if strings.Contains(e.out.String()+e.errOut.String(), localapi.DefaultAPIKey) {
		t.Errorf("the key is printed:\n%s", e.out)
	}
}

// --web against an emulator that approves at once: the key is stored and
// checked, the code and URL are on stderr, no browser is opened without a
// terminal, and the key itself never shows.
func TestWebLoginStoresTheApprovedKey(t *testing.T) {
	srv, url := cmdtest.Emulator(t, localapi.Config{DeviceAutoApprove: true, Speed: 5})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url})
	ios, _, out, errOut := iostreams.Test()
	f := factory.New(ios, nil)
	opened := 0
	opts := &LoginOptions{Seams: f.Seams(), ClientWithKey: f.ClientWithKey, Web: true,
		OpenBrowser: func(string) error { opened++; return nil }}
	if err := loginRun(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.HasPrefix(out.String(), "✓ Logged in to "+url+" as ") || opened != 0 {
		t.Errorf("stdout %q, browser opened %d times", out, opened)
	}
	for _, want := range []string{"one-time code: ", url + "/cli/device?user_code="} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("%q not in stderr %q", want, errOut)
		}
	}
	if strings.Contains(out.String()+errOut.String(), localapi.DefaultAPIKey) {
		t.Error("the key was printed")
	}
	f.SetFlags(nil)
	key, source, err := f.APIKey()
	if err != nil || key != localapi.DefaultAPIKey || !strings.HasSuffix(source, "credentials.json") {
		t.Errorf("stored key from %q: %v", source, err)
	}
	if srv.Stats().Requests["GET /api/me"] == nil {
		t.Error("the approved key was not checked with GET /api/me")
	}
}
