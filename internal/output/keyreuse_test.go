package output

import (
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// The journal's key reuse is one line on stderr, also with --json (stdout
// stays one document), and none with --quiet.
func TestKeyReuseNotice(t *testing.T) {
	started := time.Now().Add(-3 * time.Minute)
	ev := client.Event{Kind: client.EventKeyReuse, IdempotencyKey: "5f0c2a4e9b1d4c7f8a6e3b2d1c0f9e8d", Label: "rollout demo", Started: started}
	for _, tc := range []struct {
		json, quiet bool
		want        string
	}{
		{false, false, "Reusing idempotency key 5f0c2a4e… of the unfinished rollout demo at "},
		{true, false, "Reusing idempotency key 5f0c2a4e…"},
		{false, true, ""},
	} {
		ios, _, out, errOut := iostreams.Test()
		ios.SetJSON(tc.json)
		ios.SetQuiet(tc.quiet)
		handleEvent(ios, nil, ev)
		if out.Len() != 0 {
			t.Errorf("stdout %q", out.String())
		}
		got := errOut.String()
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) || strings.Count(got, "\n") > 1 ||
			tc.want != "" && !strings.HasSuffix(got, "; --new-key starts a new one\n") {
			t.Errorf("json=%v quiet=%v: stderr %q, want %q", tc.json, tc.quiet, got, tc.want)
		}
	}
}
