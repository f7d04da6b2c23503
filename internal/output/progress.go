package output

import (
	"fmt"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// EventHandler returns the client.Options.OnEvent callback that shows the
// client's events on ios: the spinner's status, poll count and notes, or a
// few plain notice lines where no spinner is drawn. invocation is the
// command line as typed, for the resume command it prints.
func EventHandler(ios *iostreams.IOStreams, invocation []string) func(client.Event) {
	return func(ev client.Event) { handleEvent(ios, invocation, ev) }
}

// handleEvent renders one client event on ios. It may be called from any
// goroutine.
func handleEvent(s *iostreams.IOStreams, invocation []string, ev client.Event) {
	// Statuses, ids, reasons and labels may come from the server.
	for _, f := range []*string{&ev.Status, &ev.RequestID, &ev.Reason, &ev.Resource, &ev.BreakerState, &ev.URL, &ev.Label, &ev.IdempotencyKey} {
		*f = Sanitize(*f)
	}
	var notice string
	s.UpdateProgress(func(p *iostreams.ProgressState) {
		switch ev.Kind {
		case client.EventAccepted:
			p.ID, p.Status, p.Note = ev.RequestID, firstNonEmpty(ev.Status, "queued"), ""
			// Announce only a wait the user sees happening (not --no-wait).
			if p.Active && !p.Spinning && !p.Announced && ev.RequestID != "" {
				p.Announced = true
				notice = fmt.Sprintf("Accepted as %s; waiting (resume with: %s)", ev.RequestID, CommandLine(invocation, "ops", "wait", ev.RequestID))
			}
		case client.EventPoll:
			if ev.RequestID != "" {
				p.ID = ev.RequestID
			}
			p.Status, p.Note = firstNonEmpty(ev.Status, p.Status), ""
			p.Polls = max(p.Polls+1, ev.Polls)
		case client.EventRetry:
			p.Note = fmt.Sprintf("retrying in %s (%s)", roundDelay(ev.Delay), firstNonEmpty(ev.Reason, "transient failure"))
			if !p.Spinning {
				what := strings.TrimSpace(ev.Method + " " + redactQuery(ev.URL))
				notice = fmt.Sprintf("Retrying %s in %s: %s", what, roundDelay(ev.Delay), firstNonEmpty(ev.Reason, "transient failure"))
			}
		case client.EventRateWait:
			// Why, and for how long at most: the wait ends when the window
			// refills, or earlier if the ledger's ceiling is reached.
			p.Note = fmt.Sprintf("rate limit spent, waiting at most %s", roundDelay(ev.Delay))
			if !p.Spinning {
				notice = fmt.Sprintf("Rate limit of this API key spent: waiting at most %s for the window to refill", roundDelay(ev.Delay))
			}
		case client.EventBreakerWait:
			// --breaker-wait: nothing is sent while the breaker is open.
			if ev.BreakerState == "half-open" {
				p.Note = fmt.Sprintf("breaker %s half-open, waiting for its probes (at most %s)", ev.Resource, wholeSeconds(ev.WaitLeft))
				if !p.Spinning {
					notice = fmt.Sprintf("Circuit breaker for %s is half-open: waiting at most %s for its probe requests", ev.Resource, wholeSeconds(ev.WaitLeft))
				}
				break
			}
			p.Note = fmt.Sprintf("breaker %s open, waiting %s", ev.Resource, wholeSeconds(ev.Delay))
			if !p.Spinning {
				notice = fmt.Sprintf("Circuit breaker for %s is open: waiting %s for it to half-open (--breaker-wait, %s left)", ev.Resource, wholeSeconds(ev.Delay), wholeSeconds(ev.WaitLeft))
			}
		case client.EventBreaker:
			if ev.BreakerState != "" && ev.Resource != "" {
				p.Note = fmt.Sprintf("breaker %s %s", ev.Resource, ev.BreakerState)
			}
		}
	})
	if ev.Kind == client.EventKeyReuse {
		keyReused(s, ev)
		return
	}

	if notice != "" && s.ShowNotices() && !s.JSON() {
		fmt.Fprintln(s.ErrOut, notice)
	}
}

// FailProgress ends the wait shown on ios with the error it ended with.
// Where a spinner was drawn for an accepted operation it leaves a line
// saying how the wait ended and after how long: "✗ Rolling out x · failed
// after 12s", "… Rolling out x · still deploying after 12s" when the wait
// timed out, nothing for an interrupt (the terminal already shows it).
func FailProgress(s *iostreams.IOStreams, err error) { s.EndProgress(waitOutcome(err)) }

// waitOutcome is how a wait that ended with failure ended.
func waitOutcome(failure error) iostreams.ProgressOutcome {
	switch {
	case failure == nil || client.IsCancelled(failure):
		return iostreams.ProgressStopped
	case client.IsAsyncTimeout(failure):
		return iostreams.ProgressStillRunning
	}
	return iostreams.ProgressFailed
}

func roundDelay(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// wholeSeconds is a wait as the breaker's own messages show it: whole
// seconds, rounded up ("23s").
func wholeSeconds(d time.Duration) string {
	return fmt.Sprintf("%ds", max(int64((d+time.Second-1)/time.Second), 0))
}

// redactQuery drops a URL's query string: a cable token may live there.
func redactQuery(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i]
	}
	return u
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// keyReused says, in one line on stderr (even with --json, like the replay
// notice), that the outcome journal gave this mutation the key of an
// unfinished run of it (docs/contract.md §10).
func keyReused(s *iostreams.IOStreams, ev client.Event) {
	key := ev.IdempotencyKey
	if len(key) > 12 {
		key = key[:8] + "…"
	}
	at, now := ev.Started.Local(), time.Now()
	when := at.Format("15:04")
	if y, m, d := at.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		when = at.Format("Jan 2 15:04")
	}
	s.NoticeAbove("Reusing idempotency key %s of the unfinished %s at %s; --new-key starts a new one",
		key, firstNonEmpty(ev.Label, "operation"), when)
}
