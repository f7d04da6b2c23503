package ops

import (
	"testing"
	"time"

	"github.com/fibegg/fibe/cmd/cmdutil"
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
