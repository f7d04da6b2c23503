package output

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// How a wait ended decides the line its spinner leaves.
func TestWaitOutcome(t *testing.T) {
	cases := []struct {
		failure error
		want    iostreams.ProgressOutcome
	}{
		{&client.Error{Code: "PLAYGROUND_BUILD_FAILED", Async: true}, iostreams.ProgressFailed},
		{&client.Error{Code: client.CodeTerminalState}, iostreams.ProgressFailed},
		{errors.New("boom"), iostreams.ProgressFailed},
		{&client.Error{Code: client.CodeAsyncTimeout}, iostreams.ProgressStillRunning},
		{&client.Error{Code: client.CodeCancelled}, iostreams.ProgressStopped},
		{nil, iostreams.ProgressStopped},
	}
	for _, c := range cases {
		if got := waitOutcome(c.failure); got != c.want {
			t.Errorf("%v: %v, want %v", c.failure, got, c.want)
		}
	}
}

// A rate-limit wait says why and for how long at most.
func TestRateWaitNotice(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.StartProgress("Creating playground x")
	handleEvent(ios, nil, client.Event{Kind: client.EventRateWait, Delay: 2500 * time.Millisecond, Reason: "rate limit spent"})
	ios.StopProgress()
	want := "Rate limit of this API key spent: waiting at most 2.5s for the window to refill\n"
	if errOut.String() != want {
		t.Errorf("%q, want %q", errOut, want)
	}
}

// Waiting out an open breaker names the resource and the seconds left,
// once per state, on stderr only.
func TestBreakerWaitNotice(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	on := EventHandler(ios, nil)
	on(client.Event{Kind: client.EventBreakerWait, Resource: "marquee/prod-eu", BreakerState: "open",
		Delay: 22100 * time.Millisecond, WaitLeft: 44 * time.Second})
	on(client.Event{Kind: client.EventBreakerWait, Resource: "marquee/prod-eu", BreakerState: "half-open",
		Delay: 500 * time.Millisecond, WaitLeft: 21500 * time.Millisecond})
	want := "Circuit breaker for marquee/prod-eu is open: waiting 23s for it to half-open (--breaker-wait, 44s left)\n" +
		"Circuit breaker for marquee/prod-eu is half-open: waiting at most 22s for its probe requests\n"
	if errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing", out)
	}
}

// Without a spinner, an accepted operation is announced once, with the
// command that resumes the wait against the same API; polls feed the
// status a timed-out wait reports.
func TestAcceptedNoticeAndStatus(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	on := EventHandler(ios, []string{"--api-url", "local", "pg", "rollout", "x"})
	ios.StartProgress("Rolling out x")
	on(client.Event{Kind: client.EventAccepted, RequestID: "req_7"})
	on(client.Event{Kind: client.EventAccepted, RequestID: "req_7"})
	on(client.Event{Kind: client.EventPoll, Status: "running", Polls: 1})
	FailProgress(ios, &client.Error{Code: client.CodeAsyncTimeout})
	want := "Accepted as req_7; waiting (resume with: fibe --api-url local ops wait req_7)\n"
	if errOut.String() != want {
		t.Errorf("%q, want %q", errOut, want)
	}
	if id, status := ios.LastStatus(); id != "req_7" || status != "running" {
		t.Errorf("LastStatus = %q, %q", id, status)
	}
}

// An interrupted prompt ends with CANCELLED, like any other interrupted step.
func TestPromptInterruptIsCancelled(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	if _, err := Confirm(context.Background(), ios, "sure?"); err != iostreams.ErrNoTerminal {
		t.Errorf("Confirm without a terminal: %v", err)
	}
	blocked, _ := io.Pipe() // never written: the read blocks
	ios = iostreams.New(blocked, &bytes.Buffer{}, &bytes.Buffer{}, iostreams.Terminals{Stdin: true, Stderr: true}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Confirm(ctx, ios, "sure?")
	if !client.IsCancelled(err) || ExitCode(err) != ExitInterrupted {
		t.Errorf("Confirm after Ctrl-C: %v", err)
	}
	if _, err := PromptSecret(ctx, ios, "key: "); !client.IsCancelled(err) {
		t.Errorf("PromptSecret after Ctrl-C: %v", err)
	}
}
