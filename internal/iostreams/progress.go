package iostreams

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/briandowns/spinner"
)

// ProgressState is what the progress line of a wait shows, besides its
// label and elapsed time: "Rolling out x · running · 12s · poll 7 ·
// retrying in 1s". Callers change it with UpdateProgress.
type ProgressState struct {
	// ID names the operation waited on (an accepted request). A spinner
	// leaves a line saying how the wait ended only when it is set.
	ID     string
	Status string
	Polls  int
	// Note is transient: a retry or a wait, cleared by the next update.
	Note string
	// Announced records that a plain notice about this wait was printed.
	Announced bool

	// Read only: the label given to StartProgress, whether a wait is shown
	// (between StartProgress and its end) and whether a spinner is drawn.
	Label    string
	Active   bool
	Spinning bool
}

// progress is what the user sees while a command waits: a spinner on a
// terminal, a few plain notice lines otherwise. It may be updated from any
// goroutine.
type progress struct {
	now   func() time.Time
	start time.Time

	mu     sync.Mutex
	state  ProgressState // Active and Spinning are kept in active and sp
	sp     *spinner.Spinner
	active bool // between StartProgress and the end of the wait
}

// ProgressOutcome is how a wait ended, for the line its spinner leaves.
type ProgressOutcome int

const (
	// ProgressStopped leaves no line: the wait was abandoned (an interrupt,
	// which the terminal already shows) or there is nothing to say.
	ProgressStopped ProgressOutcome = iota
	// ProgressDone leaves "✓ Rolling out x · done in 12s".
	ProgressDone
	// ProgressFailed leaves "✗ Rolling out x · failed after 12s".
	ProgressFailed
	// ProgressStillRunning is a wait that gave up while the operation goes
	// on: "… Rolling out x · still deploying after 12s".
	ProgressStillRunning
)

// StartProgress begins showing progress for a labelled wait ("Rolling out
// preview-42"). It draws a spinner only where SpinnerAllowed says so.
// End the wait with StopProgress, SucceedProgress or EndProgress; it is
// safe to call any of them twice.
func (s *IOStreams) StartProgress(label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.progress == nil {
		s.progress = &progress{now: time.Now}
	}
	p := s.progress
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start = p.now()
	p.state = ProgressState{Label: label}
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
func (s *IOStreams) StopProgress() { s.EndProgress(ProgressStopped) }

// SucceedProgress erases the spinner and, where one was drawn for an
// accepted operation, leaves a line saying it finished and how long it took.
func (s *IOStreams) SucceedProgress() { s.EndProgress(ProgressDone) }

// EndProgress erases the spinner and, where one was drawn for an accepted
// operation (ProgressState.ID set), leaves a line saying how the wait
// ended and after how long.
func (s *IOStreams) EndProgress(outcome ProgressOutcome) {
	s.mu.Lock()
	p := s.progress
	s.mu.Unlock()
	if p == nil {
		return
	}
	p.mu.Lock()
	sp := p.sp
	p.sp, p.active = nil, false
	last := ""
	if sp != nil && p.state.ID != "" {
		last = endLine(s.ErrColorScheme(), p.state.Label, p.state.Status, p.now().Sub(p.start), outcome)
	}
	p.mu.Unlock()
	if sp != nil {
		sp.Stop() // outside p.mu: Stop waits for a frame that may be in PreUpdate
	}
	if last != "" {
		fmt.Fprintln(s.ErrOut, last)
	}
}

// endLine is the line a spinner leaves behind: how the wait ended and
// after how long, or "" when it leaves none.
func endLine(cs *ColorScheme, label, status string, elapsed time.Duration, outcome ProgressOutcome) string {
	took := elapsed.Round(100 * time.Millisecond)
	switch outcome {
	case ProgressDone:
		return fmt.Sprintf("%s %s · done in %s", cs.Green("✓"), label, took)
	case ProgressStillRunning:
		return fmt.Sprintf("%s %s · still %s after %s", cs.Yellow("…"), label, firstNonEmpty(status, "running"), took)
	case ProgressFailed:
		return fmt.Sprintf("%s %s · failed after %s", cs.Red("✗"), label, took)
	}
	return ""
}

// LastStatus is the last operation id and status the progress saw.
func (s *IOStreams) LastStatus() (id, status string) {
	s.mu.Lock()
	p := s.progress
	s.mu.Unlock()
	if p == nil {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state.ID, p.state.Status
}

// lineLocked renders "Rolling out x · running · 12s · poll 7 · retrying in 1s".
func (p *progress) lineLocked() string {
	st := p.state
	parts := []string{st.Label}
	if st.Status != "" {
		parts = append(parts, st.Status)
	}
	parts = append(parts, p.now().Sub(p.start).Truncate(time.Second).String())
	if st.Polls > 0 {
		parts = append(parts, fmt.Sprintf("poll %d", st.Polls))
	}
	if st.Note != "" {
		parts = append(parts, st.Note)
	}
	return strings.Join(parts, " · ")
}

// UpdateProgress changes what the progress line shows: update is called
// with the current state, under the progress lock, and may change its
// fields other than Label, Active and Spinning. It must not print: print
// after it returns. It may be called from any goroutine, before, during or
// after a wait.
func (s *IOStreams) UpdateProgress(update func(*ProgressState)) {
	s.mu.Lock()
	if s.progress == nil {
		s.progress = &progress{now: time.Now, start: time.Now()}
	}
	p := s.progress
	s.mu.Unlock()

	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.state
	st.Active, st.Spinning = p.active, p.sp != nil
	update(&st)
	st.Label, st.Active, st.Spinning = p.state.Label, false, false
	p.state = st
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

// Warning prints "Warning: ..." on stderr unless --quiet: something the
// user should know that does not stop the command.
func (s *IOStreams) Warning(format string, args ...any) {
	if !s.ShowNotices() {
		return
	}
	s.StopProgress()
	fmt.Fprintf(s.ErrOut, s.ErrColorScheme().Yellow("Warning:")+" "+format+"\n", args...)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// NoticeAbove prints an informational line on stderr unless --quiet, like
// Notice, but keeps a running spinner: the line goes above it and the
// spinner redraws itself on its next frame.
func (s *IOStreams) NoticeAbove(format string, args ...any) {
	if !s.ShowNotices() {
		return
	}
	line := fmt.Sprintf(format, args...)
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
	sp.Lock()
	fmt.Fprint(s.ErrOut, "\r\033[K"+line+"\n")
	sp.Unlock()
}
