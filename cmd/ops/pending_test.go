package ops

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/reliability"
)

func TestPendingAgeToTheSecond(t *testing.T) {
	for d, want := range map[time.Duration]string{
		300 * time.Millisecond:                      "just now",
		42 * time.Second:                            "42s ago",
		59*time.Second + 900*time.Millisecond:       "59s ago",
		3*time.Minute + 12*time.Second:              "3m 12s ago",
		59*time.Minute + 5*time.Second:              "59m 05s ago",
		2*time.Hour + 5*time.Minute + 9*time.Second: "2h 05m ago",
	} {
		if got := ago(d); got != want {
			t.Errorf("ago(%s) = %q, want %q", d, got, want)
		}
	}
}

func TestPendingNamesTheLocalAPIAsTyped(t *testing.T) {
	if got := apiName(cmdutil.LocalBaseURL); got != "local" {
		t.Errorf("the in-process emulator shows as %q, want local", got)
	}
	if got := apiName("http://127.0.0.1:7878"); got != "http://127.0.0.1:7878" {
		t.Errorf("a served API shows as %q", got)
	}
}

// A mutation sent with a given key whose outcome is unknown is listed
// flagged explicit: "explicit": true in JSON, "(given key)" in the table.
func TestPendingShowsAGivenKeyFlagged(t *testing.T) {
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": "local"})
	for _, asJSON := range []bool{true, false} {
		ios, _, out, _ := iostreams.Test()
		ios.SetJSON(asJSON)
		f := factory.New(ios, []string{"ops", "pending"})
		c, err := f.ClientWithoutKey()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []reliability.JournalEntry{
			{Key: "given-key-1", Explicit: true, Method: "POST", Path: "/api/playgrounds/demo/operations", Label: "rollout demo"},
			{Key: "0123456789abcdef0123456789abcdef", Signature: "sig", Method: "DELETE", Path: "/api/playgrounds/old", Label: "delete old"},
		} {
			if err := c.Journal().Put(e); err != nil {
				t.Fatal(err)
			}
		}
		cmd := NewCmdPending(f, nil)
		cmd.SetArgs(nil)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		if !asJSON {
			if !strings.Contains(out.String(), "rollout demo (given key)") || strings.Contains(out.String(), "delete old (given key)") {
				t.Errorf("table:\n%s", out)
			}
			continue
		}
		var list []Pending
		if err := json.Unmarshal(out.Bytes(), &list); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		flags := map[string]bool{}
		for _, p := range list {
			flags[p.IdempotencyKey] = p.Explicit
		}
		if len(list) != 2 || !flags["given-key-1"] || flags["0123456789abcdef0123456789abcdef"] || !regexp.MustCompile(`"explicit":\s*true`).Match(out.Bytes()) {
			t.Errorf("pending --json:\n%s", out)
		}
	}
}
