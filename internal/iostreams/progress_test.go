package iostreams

import (
	"strings"
	"testing"
	"time"
)

// A spinner leaves a line saying how the wait ended.
func TestSpinnerEndLine(t *testing.T) {
	cs := newColorScheme(false)
	cases := []struct {
		outcome ProgressOutcome
		want    string
	}{
		{ProgressDone, "✓ Rolling out x · done in 12.3s"},
		{ProgressFailed, "✗ Rolling out x · failed after 12.3s"},
		{ProgressStillRunning, "… Rolling out x · still deploying after 12.3s"},
		{ProgressStopped, ""},
	}
	for _, c := range cases {
		if got := endLine(cs, "Rolling out x", "deploying", 12345*time.Millisecond, c.outcome); got != c.want {
			t.Errorf("%v: %q, want %q", c.outcome, got, c.want)
		}
	}
	if got := endLine(cs, "Waiting", "", time.Second, ProgressStillRunning); got != "… Waiting · still running after 1s" {
		t.Errorf("no status: %q", got)
	}
}

// UpdateProgress changes what the line shows, and only what it may.
func TestUpdateProgress(t *testing.T) {
	ios, _, _, errOut := Test()
	ios.UpdateProgress(func(st *ProgressState) {
		if st.Active || st.Spinning {
			t.Errorf("before any wait: %+v", st)
		}
		st.ID, st.Status = "req_0", "queued"
	})
	ios.StartProgress("Rolling out x")
	ios.UpdateProgress(func(st *ProgressState) {
		if st.ID != "" || st.Status != "" || st.Label != "Rolling out x" || !st.Active || st.Spinning {
			t.Errorf("a new wait starts afresh: %+v", st)
		}
		st.ID, st.Status, st.Polls, st.Note = "req_1", "running", 3, "retrying"
		st.Label, st.Active, st.Spinning = "changed", false, true // read only
	})
	if id, status := ios.LastStatus(); id != "req_1" || status != "running" {
		t.Errorf("LastStatus = %q, %q", id, status)
	}
	ios.UpdateProgress(func(st *ProgressState) {
		if st.Label != "Rolling out x" || !st.Active || st.Spinning || st.Polls != 3 || st.Note != "retrying" {
			t.Errorf("read-only fields changed or state lost: %+v", st)
		}
	})
	line := ios.progress.lineLocked()
	if !strings.HasPrefix(line, "Rolling out x · running · ") || !strings.HasSuffix(line, " · poll 3 · retrying") {
		t.Errorf("line %q", line)
	}
	ios.EndProgress(ProgressFailed)
	ios.UpdateProgress(func(st *ProgressState) {
		if st.Active {
			t.Errorf("after the wait: %+v", st)
		}
	})
	if errOut.Len() != 0 {
		t.Errorf("no spinner, so no end line: %q", errOut)
	}
}
