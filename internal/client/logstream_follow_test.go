package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/localapi/cable"
)

func TestFollowTailReplaysTheLastLines(t *testing.T) {
	// A line interval of an hour freezes the log at its 20-line backlog.
	a := newStreamAPI(t, streamAPIConfig{line: time.Hour, backlog: 20})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{Tail: 5}, atLeast(5))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, 16)
	for _, l := range lines {
		if l.Line == "" || l.Stream == "" || l.Timestamp == "" || (l.Service != "web" && l.Service != "worker") {
			t.Fatalf("incomplete line %+v", l)
		}
	}
}

func TestFollowSinceReplaysEverythingAfter(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{line: time.Hour, backlog: 20})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{Since: 12}, atLeast(8))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, 13)
}

func TestFollowServiceUsesTheContainerChannel(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{line: time.Hour, backlog: 40})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{Service: "worker", Since: 0, Tail: 6}, atLeast(6))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	for i, l := range lines {
		if l.Service != "worker" {
			t.Fatalf("line %+v is not from worker", l)
		}
		if i > 0 && l.Seq <= lines[i-1].Seq {
			t.Fatalf("seqs not increasing: %d after %d", l.Seq, lines[i-1].Seq)
		}
	}
}

func TestFollowLiveLinesInOrder(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(20))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if st := a.cable.Stats(); st.Connections != 1 {
		t.Fatalf("connections = %d, want 1", st.Connections)
	}
}

func TestExpiryBurstCausesExactlyOneReconnect(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	// The recovery's fresh cable URL waits until the whole burst is on the
	// wire, so the client sees it while its one recovery is under way.
	a.beforeCableURL = func(n int64) {
		deadline := time.Now().Add(5 * time.Second)
		for n == 2 && a.cable.Stats().Expiries < 100 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
	c, trace := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 5 {
			a.cable.SetFaults(cable.Faults{ExpireBurst: 100})
		}
		return len(l) >= 60
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	st := a.cable.Stats()
	if st.Expiries != 100 {
		t.Fatalf("server sent %d expiry messages, want the burst of 100", st.Expiries)
	}
	if st.Connections != 2 || a.cableURLCalls.Load() != 2 {
		t.Fatalf("connections = %d, cable URL fetches = %d; want exactly one recovery (2 and 2)", st.Connections, a.cableURLCalls.Load())
	}
	out := trace.String()
	if !strings.Contains(out, "session_expired ignored") || !strings.Contains(out, "1 expiry recoveries") {
		t.Fatalf("trace does not show the ignored expiries:\n%s", out)
	}
}

func TestExpiryAfterACleanReconnectGetsItsAttemptAgain(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 5 || len(l) == 25 {
			a.cable.SetFaults(cable.Faults{ExpireOnce: true})
		}
		return len(l) >= 45
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if st := a.cable.Stats(); st.Expiries != 2 || st.Connections != 3 {
		t.Fatalf("expiries = %d, connections = %d; want 2 expiries, each recovered once (3 connections)", st.Expiries, st.Connections)
	}
}

func TestPersistentExpiryEndsWithATypedError(t *testing.T) {
	// Pings are slow, so the only progress a session could show is a line.
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	a.cable.SetFaults(cable.Faults{ExpireRate: 1})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, CodeUnauthorized)
	if e.Details["reason"] != "session_expired" || e.Resource != "marquee/prod-eu" {
		t.Fatalf("error %+v", e)
	}
	if len(lines) != 0 {
		t.Fatalf("got %d lines from sessions that always expire", len(lines))
	}
	if st := a.cable.Stats(); st.Connections != 2 {
		t.Fatalf("connections = %d, want 2 (one recovery, then the error)", st.Connections)
	}
}

func TestDroppedConnectionsResumeWithoutGapsOrDuplicates(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable.SetFaults(cable.Faults{DropRate: 0.1})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(150))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if st := a.cable.Stats(); st.Drops < 3 || st.Connections < st.Drops {
		t.Fatalf("stats %+v: want several drops, each reconnected", st)
	}
}

func TestDropAfterResumesFromTheLastSeq(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 3 {
			a.cable.SetFaults(cable.Faults{DropAfter: 60 * time.Millisecond})
		}
		return a.cable.Stats().Drops >= 3 && len(l) >= 40
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
}

func TestDropsWithoutProgressEndWithATypedError(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	a.cable.SetFaults(cable.Faults{DropRate: 1})
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, CodeNetwork)
	if !e.Retryable || !strings.Contains(e.Message, "without progress") {
		t.Fatalf("error %+v", e)
	}
	// The first connection and MaxRetries (3) reconnects.
	if st := a.cable.Stats(); st.Connections != 4 {
		t.Fatalf("connections = %d, want 4", st.Connections)
	}
}

func TestMissedPingsReconnect(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: 20 * time.Millisecond})
	a.cable.SetFaults(cable.Faults{NoPing: true})
	c, trace := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{PingInterval: 20 * time.Millisecond}, func(l []LogLine) bool {
		return a.cable.Stats().Connections >= 3 && len(l) >= 30
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if !strings.Contains(trace.String(), "no ping for two intervals") {
		t.Fatal("trace does not name the missed pings")
	}
}

func TestRejectedSubscriptionIsAnError(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable.SetFaults(cable.Faults{RejectRate: 1})
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, CodeForbidden)
	if st := a.cable.Stats(); st.Connections != 1 || st.Rejections != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestUnauthorizedHandshakeIsNotRetried(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.badTokens.Store(true)
	c, _ := a.client("fibe_wrong_key")
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, CodeUnauthorized)
	if e.Status != 401 || e.Retryable {
		t.Fatalf("error %+v", e)
	}
	if st := a.cable.Stats(); st.Unauthorized != 1 || st.Connections != 0 {
		t.Fatalf("stats %+v: want one 401 and no connection", st)
	}
}

func TestFallbackToTheAPIKeyWithoutCableURL(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.noCableURL.Store(true)
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(5))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)

	bad, _ := a.client("fibe_wrong_key")
	_, err = follow(t, bad, FollowOptions{}, atLeast(1))
	mustCode(t, err, CodeUnauthorized)
}

func TestHandshakeFailuresGoThroughTheMarqueeBreaker(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable503.Store(-1)
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, CodeInternal)
	if e.Status != 503 || !e.Retryable || e.Resource != "marquee/prod-eu" {
		t.Fatalf("error %+v", e)
	}
	if n := failuresOf(t, c, "marquee/prod-eu"); n != 4 {
		t.Fatalf("%d failures on marquee/prod-eu, want 4", n)
	}

	// With a budget of five retries the fifth failure opens the breaker and
	// the sixth attempt is not sent.
	c, _ = a.client(streamKey, func(o *Options) { o.Policy.MaxRetries = 5 })
	_, err = follow(t, c, FollowOptions{}, atLeast(1))
	e = mustCode(t, err, CodeCircuitOpen)
	if !strings.Contains(e.Message, "marquee/prod-eu") {
		t.Fatalf("message %q does not name the marquee", e.Message)
	}
	// The next stream is refused before anything is sent.
	_, err = follow(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, CodeCircuitOpen)
}

func TestCancelEndsTheStreamCleanly(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	done := make(chan error, 1)
	go func() {
		done <- c.Playgrounds.FollowLogs(ctx, "preview", FollowOptions{PingInterval: 10 * time.Second}, func(LogLine) error {
			if n++; n == 3 {
				cancel()
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		e := mustCode(t, err, CodeCancelled)
		if !IsCancelled(err) || !errors.Is(err, context.Canceled) {
			t.Fatalf("error %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("FollowLogs did not return after cancel")
	}
	// The connection is closed, not left behind.
	deadline := time.Now().Add(5 * time.Second)
	for a.cable.Stats().Open != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("server still has %d open connections", a.cable.Stats().Open)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestUnknownPlaygroundIsNotFound(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	err := c.Playgrounds.FollowLogs(context.Background(), "nope", FollowOptions{}, func(LogLine) error { return nil })
	mustCode(t, err, CodeNotFound)
}

func TestTraceNeverShowsSecrets(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, trace := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 3 {
			a.cable.SetFaults(cable.Faults{ExpireOnce: true})
		}
		return len(l) >= 10
	})
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	out := trace.String()
	if !strings.Contains(out, "stream:") {
		t.Fatalf("no stream trace:\n%s", out)
	}
	for _, secret := range []string{streamKey, "tok_secret_"} {
		if strings.Contains(out, secret) {
			t.Fatalf("trace shows %q:\n%s", secret, out)
		}
	}
}
