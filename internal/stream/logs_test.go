package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
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

// A session that expires right after every confirmation cannot make
// progress: each expiry gets its recovery, each costs one retry of the
// budget, and the stream ends with SESSION_EXPIRED (exit 12), not an auth
// error, after the same number of retries as a request.
func TestPersistentExpiryEndsWithSessionExpired(t *testing.T) {
	// Pings are slow, so the only progress a session could show is a line.
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	a.cable.SetFaults(cable.Faults{ExpireRate: 1})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, client.CodeSessionExpired)
	if e.Details["reason"] != "session_expired" || e.Resource != "marquee/prod-eu" || e.Status != 0 {
		t.Fatalf("error %+v", e)
	}
	if len(lines) != 0 {
		t.Fatalf("got %d lines from sessions that always expire", len(lines))
	}
	if st, want := a.cable.Stats(), c.Policy().Attempts(); st.Connections != want {
		t.Fatalf("connections = %d, want %d (the first and one recovery per retry)", st.Connections, want)
	}
}

// Intermittent expiries never end a stream that makes progress between
// them: every expiry after a confirmed subscription gets its recovery.
func TestIntermittentExpiriesNeverEndAWorkingStream(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable.SetFaults(cable.Faults{ExpireRate: 0.3})
	c, _ := a.client(streamKey)
	lines, err := follow(t, c, FollowOptions{}, atLeast(40))
	if !errors.Is(err, errEnough) {
		t.Fatalf("err = %v", err)
	}
	assertContiguous(t, lines, lines[0].Seq)
	if st := a.cable.Stats(); st.Expiries < 5 {
		t.Fatalf("only %d expiries; the fault did not bite", st.Expiries)
	}
}

// Recoveries that are refused (the renewed subscription is rejected) end
// the stream with SESSION_EXPIRED once the budget is spent.
func TestRefusedRecoveriesEndWithSessionExpired(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Second})
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, func(l []LogLine) bool {
		if len(l) == 5 {
			a.cable.SetFaults(cable.Faults{ExpireOnce: true, RejectRate: 1})
		}
		return false
	})
	e := mustCode(t, err, client.CodeSessionExpired)
	if e.Details["reason"] != "subscription_rejected" {
		t.Fatalf("error %+v", e)
	}
	if st, want := a.cable.Stats(), c.Policy().Attempts(); st.Rejections != want {
		t.Fatalf("rejections = %d, want %d", st.Rejections, want)
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
	e := mustCode(t, err, client.CodeNetwork)
	if !e.Retryable || !strings.Contains(e.Message, "without progress") {
		t.Fatalf("error %+v", e)
	}
	// The first connection and MaxRetries (3) reconnects.
	if st := a.cable.Stats(); st.Connections != 4 {
		t.Fatalf("connections = %d, want 4", st.Connections)
	}
}

// Liveness is two ping intervals as the server shows them: the client
// starts with the 3 s default, learns the server's 30 ms period from its
// pings (two gaps confirm a period that much shorter), and once the pings stop reconnects a quiet stream (no lines) after
// two of those, not after 6 s. A quiet stream that stays up makes
// progress, so it is reconnected for ever rather than given up.
func TestMissedPingsReconnectAfterTwoServerIntervals(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: 30 * time.Millisecond, line: time.Hour})
	c, trace := a.client(streamKey)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, c, "preview", FollowOptions{}, func(LogLine) error { return nil })
	}()
	waitUntil(t, "three pings", func() bool { return a.cable.Stats().Pings >= 5 })
	start := time.Now()
	a.cable.SetFaults(cable.Faults{NoPing: true})
	waitUntil(t, "two reconnects", func() bool { return a.cable.Stats().Connections >= 3 })
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("reconnecting took %s: the client did not use the server's ping interval", took)
	}
	cancel()
	if err := <-done; !client.IsCancelled(err) {
		t.Fatalf("err = %v, want CANCELLED", err)
	}
	if !strings.Contains(trace.String(), "no ping for two intervals") {
		t.Fatalf("trace does not name the missed pings:\n%s", trace.String())
	}
}

// waitUntil polls cond until it holds or a generous bound passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestRejectedSubscriptionIsAnError(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable.SetFaults(cable.Faults{RejectRate: 1})
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, client.CodeForbidden)
	if st := a.cable.Stats(); st.Connections != 1 || st.Rejections != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestUnauthorizedHandshakeIsNotRetried(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.badTokens.Store(true)
	c, _ := a.client("fibe_wrong_key")
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, client.CodeUnauthorized)
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
	mustCode(t, err, client.CodeUnauthorized)
}

func TestHandshakeFailuresGoThroughTheMarqueeBreaker(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	a.cable503.Store(-1)
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{}, atLeast(1))
	e := mustCode(t, err, client.CodeInternal)
	if e.Status != 503 || !e.Retryable || e.Resource != "marquee/prod-eu" {
		t.Fatalf("error %+v", e)
	}
	if n := failuresOf(t, c, "marquee/prod-eu"); n != 4 {
		t.Fatalf("%d failures on marquee/prod-eu, want 4", n)
	}

	// With a budget of five retries the fifth failure opens the breaker and
	// the sixth attempt is not sent.
	c, _ = a.client(streamKey, func(o *client.Options) { o.Policy.MaxRetries = 5 })
	_, err = follow(t, c, FollowOptions{}, atLeast(1))
	e = mustCode(t, err, client.CodeCircuitOpen)
	if !strings.Contains(e.Message, "marquee/prod-eu") {
		t.Fatalf("message %q does not name the marquee", e.Message)
	}
	// The next stream is refused before anything is sent.
	_, err = follow(t, c, FollowOptions{}, atLeast(1))
	mustCode(t, err, client.CodeCircuitOpen)
}

func TestCancelEndsTheStreamCleanly(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{})
	c, _ := a.client(streamKey)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, c, "preview", FollowOptions{PingInterval: 10 * time.Second}, func(LogLine) error {
			if n++; n == 3 {
				cancel()
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		e := mustCode(t, err, client.CodeCancelled)
		if !client.IsCancelled(err) || !errors.Is(err, context.Canceled) {
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
	err := Follow(context.Background(), c, "nope", FollowOptions{}, func(LogLine) error { return nil })
	mustCode(t, err, client.CodeNotFound)
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

// An expired session is not progress, however long its recovery takes:
// the old connection outliving a ping interval while the renewal waits
// does not give the budget back.
func TestASlowRecoveryIsNotProgress(t *testing.T) {
	a := newStreamAPI(t, streamAPIConfig{ping: time.Hour})
	a.cable.SetFaults(cable.Faults{ExpireRate: 1})
	a.beforeCableURL = func(n int64) {
		if n >= 2 {
			time.Sleep(150 * time.Millisecond) // longer than the ping interval below
		}
	}
	c, _ := a.client(streamKey)
	_, err := follow(t, c, FollowOptions{PingInterval: 50 * time.Millisecond}, atLeast(1))
	mustCode(t, err, client.CodeSessionExpired)
	if st, want := a.cable.Stats(), c.Policy().Attempts(); st.Connections != want {
		t.Fatalf("connections = %d, want %d", st.Connections, want)
	}
}
