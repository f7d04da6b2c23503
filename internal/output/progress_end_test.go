package output

import (
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// A spinner leaves a line saying how the wait ended, failure included.
func TestSpinnerEndLine(t *testing.T) {
	cs := newColorScheme(false)
	cases := []struct {
		failure   error
		succeeded bool
		want      string
	}{
		{nil, true, "✓ Rolling out x · done in 12.3s"},
		{&client.Error{Code: "PLAYGROUND_BUILD_FAILED", Async: true}, false, "✗ Rolling out x · failed after 12.3s"},
		{&client.Error{Code: client.CodeTerminalState}, false, "✗ Rolling out x · failed after 12.3s"},
		{&client.Error{Code: client.CodeAsyncTimeout}, false, "… Rolling out x · still deploying after 12.3s"},
		{&client.Error{Code: client.CodeCancelled}, false, ""},
		{nil, false, ""},
	}
	for _, c := range cases {
		if got := endLine(cs, "Rolling out x", "deploying", 12345*time.Millisecond, c.failure, c.succeeded); got != c.want {
			t.Errorf("%v: %q, want %q", c.failure, got, c.want)
		}
	}
}

// A rate-limit wait says why and for how long at most.
func TestRateWaitNotice(t *testing.T) {
	ios, _, _, errOut := Test()
	ios.StartProgress("Creating playground x")
	ios.HandleEvent(client.Event{Kind: client.EventRateWait, Delay: 2500 * time.Millisecond, Reason: "rate limit spent"})
	ios.StopProgress()
	want := "Rate limit of this API key spent: waiting at most 2.5s for the window to refill\n"
	if errOut.String() != want {
		t.Errorf("%q, want %q", errOut, want)
	}
}
