package breaker

import (
	"strings"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// An open breaker shows what opened it and when it will probe, not the
// reset count of zero failures.
func TestStatusTableSaysWhatOpenedIt(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	ios, _, out, _ := iostreams.Test()
	err := printStatus(ios, []Status{
		{BreakerStatus: client.BreakerStatus{Resource: "marquee/prod-eu", State: "open", OpenUntil: now.Add(22 * time.Second)},
			OpenedAt: now.Add(-8 * time.Second), OpenedAfter: 5, ProbeAt: now.Add(22 * time.Second)},
		{BreakerStatus: client.BreakerStatus{Resource: "marquee/local", State: "closed", ConsecutiveFailures: 2}},
		{BreakerStatus: client.BreakerStatus{Resource: "marquee/slow", State: "half-open"}},
	}, 5, 2, now)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header and 3 rows:\n%s", out)
	}
	for _, c := range []struct {
		line  string
		wants []string
	}{
		{lines[0], []string{"RESOURCE", "STATE", "FAILURES", "OPENED", "NEXT PROBE"}},
		{lines[1], []string{"marquee/prod-eu", "open", "5 in a row", "03:03:57 (8s ago)", "in 22s"}},
		{lines[2], []string{"marquee/local", "closed", "2 of 5"}},
		{lines[3], []string{"marquee/slow", "half-open", "now (at most 2 probes)"}},
	} {
		for _, w := range c.wants {
			if !strings.Contains(c.line, w) {
				t.Errorf("%q not in %q", w, c.line)
			}
		}
	}
	if strings.Contains(lines[1], " 0 ") {
		t.Errorf("an open breaker shows 0 failures: %q", lines[1])
	}
}
