package output

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/briandowns/spinner"

	"github.com/fibegg/fibe/internal/client"
)

// Progress is what the user sees while a command waits: a spinner on a
// terminal, a few plain notice lines otherwise. It is fed by the client's
// OnEvent callback, which may be called from any goroutine.
type Progress struct {
	ios   *IOStreams
	now   func() time.Time
	start time.Time

	mu        sync.Mutex
	label     string
	sp        *spinner.Spinner
	requestID string
	status    string
	polls     int
	note      string // transient: a retry or a rate-limit wait
	announced bool   // the plain "accepted" notice was printed
	active    bool   // between StartProgress and StopProgress
}

// StartProgress begins showing progress for a labelled wait ("Rolling out
// preview-42"). It draws a spinner only where SpinnerAllowed says so.
// Call StopProgress when the wait ends; it is safe to call either twice.
func (s *IOStreams) StartProgress(label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress == nil {
		s.progress = &Progress{ios: s, now: time.Now}
	}
	p := s.progress
	p.mu.Lock()
	defer p.mu.Unlock()
	p.label, p.start = label, p.now()
	p.status, p.polls, p.note, p.requestID, p.announced = "", 0, "", "", false
	p.active = true
	if p.sp != nil || !s.SpinnerAllowed() {
		return
	}
	f, ok := s.ErrOut.(*os.File)
	if !ok {
		return // the spinner library needs a file to check it is a terminal
	}
	sp := spinner.New(spinner.CharSets[14], 100*time.Millisecond, spinner.WithWriterFile(f))
	if !s.ErrColorEnabled() {
		_ = sp.Color() // no colors: the indicator is printed plain
	} else {
		_ = sp.Color("cyan")
	}
	// Refresh the suffix on every frame so the elapsed time keeps moving
	// between polls. PreUpdate runs with the spinner's lock held.
	sp.PreUpdate = func(sp *spinner.Spinner) {
		p.mu.Lock()
		sp.Suffix = " " + p.lineLocked()
		p.mu.Unlock()
	}
	sp.Suffix = " " + p.lineLocked()
	p.sp = sp
	sp.Start()
}

// StopProgress erases the spinner, if any.
func (s *IOStreams) StopProgress() { s.stopProgress(false) }

// SucceedProgress erases the spinner and, where one was drawn for an
// accepted operation, leaves a line saying it finished and how long it took.
func (s *IOStreams) SucceedProgress() { s.stopProgress(true) }

func (s *IOStreams) stopProgress(succeeded bool) {
	s.mu.Lock()
	p := s.progress
	s.mu.Unlock()
	if p == nil {
		return
	}
	p.mu.Lock()
	sp := p.sp
	p.sp, p.active = nil, false
	done := ""
	if succeeded && sp != nil && p.requestID != "" {
		done = fmt.Sprintf("%s %s · done in %s", s.ErrColorScheme().Green("✓"), p.label, p.now().Sub(p.start).Round(100*time.Millisecond))
	}
	p.mu.Unlock()
	if sp != nil {
		sp.Stop() // outside p.mu: Stop waits for a frame that may be in PreUpdate
	}
	if done != "" {
		fmt.Fprintln(s.ErrOut, done)
	}
}

// LastStatus is the last async status and request id the progress saw.
func (s *IOStreams) LastStatus() (requestID, status string) {
	s.mu.Lock()
	p := s.progress
	s.mu.Unlock()
	if p == nil {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requestID, p.status
}

// lineLocked renders "Rolling out x · running · 12s · poll 7 · retrying in 1s".
func (p *Progress) lineLocked() string {
	parts := []string{p.label}
	if p.status != "" {
		parts = append(parts, p.status)
	}
	parts = append(parts, p.now().Sub(p.start).Truncate(time.Second).String())
	if p.polls > 0 {
		parts = append(parts, fmt.Sprintf("poll %d", p.polls))
	}
	if p.note != "" {
		parts = append(parts, p.note)
	}
	return strings.Join(parts, " · ")
}

// HandleEvent renders one client event. Set it as client.Options.OnEvent.
func (s *IOStreams) HandleEvent(ev client.Event) {
	s.mu.Lock()
	if s.progress == nil {
		s.progress = &Progress{ios: s, now: time.Now, start: time.Now()}
	}
	p := s.progress
	s.mu.Unlock()

	p.mu.Lock()
	var notice string
	switch ev.Kind {
	case client.EventAccepted:
		p.requestID, p.status, p.note = ev.RequestID, firstNonEmpty(ev.Status, "queued"), ""
		// Announce only a wait the user sees happening (not --no-wait).
		if p.active && p.sp == nil && !p.announced && ev.RequestID != "" {
			p.announced = true
			notice = fmt.Sprintf("Accepted as %s; waiting (resume with: %s)", ev.RequestID, s.Command("ops", "wait", ev.RequestID))
		}
	case client.EventPoll:
		if ev.RequestID != "" {
			p.requestID = ev.RequestID
		}
		p.status, p.note = firstNonEmpty(ev.Status, p.status), ""
		p.polls = max(p.polls+1, ev.Polls)
	case client.EventRetry:
		p.note = fmt.Sprintf("retrying in %s (%s)", roundDelay(ev.Delay), firstNonEmpty(ev.Reason, "transient failure"))
		if p.sp == nil {
			what := strings.TrimSpace(ev.Method + " " + redactQuery(ev.URL))
			notice = fmt.Sprintf("Retrying %s in %s: %s", what, roundDelay(ev.Delay), firstNonEmpty(ev.Reason, "transient failure"))
		}
	case client.EventRateWait:
		p.note = fmt.Sprintf("rate limited, waiting %s", roundDelay(ev.Delay))
		if p.sp == nil {
			notice = fmt.Sprintf("Rate limit reached; waiting %s", roundDelay(ev.Delay))
		}
	case client.EventBreaker:
		if ev.BreakerState != "" && ev.Resource != "" {
			p.note = fmt.Sprintf("breaker %s %s", ev.Resource, ev.BreakerState)
		}
	case client.EventKeyReuse:
		p.mu.Unlock()
		s.keyReused(ev)
		return
	}
	p.mu.Unlock()

	if notice != "" && s.ShowNotices() && !s.json {
		fmt.Fprintln(s.ErrOut, notice)
	}
}

// Notice prints an informational line on stderr unless --quiet. Notices
// are printed even with --json: stdout stays one document.
func (s *IOStreams) Notice(format string, args ...any) {
	if !s.ShowNotices() {
		return
	}
	s.StopProgress()
	fmt.Fprintf(s.ErrOut, format+"\n", args...)
}

func roundDelay(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
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
// unfinished run of it (contract §10).
func (s *IOStreams) keyReused(ev client.Event) {
	if !s.ShowNotices() {
		return
	}
	key := ev.IdempotencyKey
	if len(key) > 12 {
		key = key[:8] + "…"
	}
	at := ev.Started.Local()
	when := at.Format("15:04")
	if y, m, d := at.Date(); y != time.Now().Year() || m != time.Now().Month() || d != time.Now().Day() {
		when = at.Format("Jan 2 15:04")
	}
	line := fmt.Sprintf("Reusing idempotency key %s of the unfinished %s at %s; --new-key starts a new one",
		key, firstNonEmpty(ev.Label, "operation"), when)
	s.mu.Lock()
	p := s.progress
	s.mu.Unlock()
	var sp *spinner.Spinner
	if p != nil {
		p.mu.Lock()
		sp = p.sp
		p.mu.Unlock()
	}
	if sp == nil {
		fmt.Fprintln(s.ErrOut, line)
		return
	}
	// Above the spinner, which redraws itself on its next frame.
	sp.Lock()
	fmt.Fprint(s.ErrOut, "\r\033[K"+line+"\n")
	sp.Unlock()
}
