// Package cmdtest gives command tests a user of their own: a fresh home
// with no setting inherited from the developer's environment, and the
// local Fibe API served on 127.0.0.1.
package cmdtest

import (
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/localapi"
)

// Isolate gives the test a fresh user: HOME and the XDG directories under
// a temporary directory, no OS keyring, and every variable of the settings
// table empty (a developer's FIBE_STATE_STORE or FIBE_API_KEY must not
// leak into a test) unless env sets it. It returns the home directory.
func Isolate(t testing.TB, env map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{}
	for _, s := range config.Settings {
		if s.Env != "" {
			vars[s.Env] = ""
		}
		for _, a := range s.Aliases {
			vars[a] = ""
		}
	}
	vars["HOME"], vars["XDG_CONFIG_HOME"], vars["XDG_STATE_HOME"] = dir, filepath.Join(dir, "c"), filepath.Join(dir, "s")
	vars["FIBE_NO_KEYRING"] = "1"
	for k, v := range env {
		vars[k] = v
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
	return dir
}

// Emulator serves the local Fibe API (cfg; Speed 50 when it sets none) on
// 127.0.0.1 until the test ends and returns it with its URL.
func Emulator(t testing.TB, cfg localapi.Config) (*localapi.Server, string) {
	t.Helper()
	if cfg.Speed == 0 {
		cfg.Speed = 50
	}
	srv, err := localapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	return srv, ts.URL
}
