package reliability

import (
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"
)

func TestBreakerWaitStep(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	open := func(in time.Duration) *OpenError {
		return &OpenError{Resource: "marquee/m", State: gobreaker.StateOpen, RetryIn: in}
	}
	probing := &OpenError{Resource: "marquee/m", State: gobreaker.StateHalfOpen, RetryIn: time.Minute}
	wait := Policy{BreakerWait: 45 * time.Second}
	for _, c := range []struct {
		name   string
		p      Policy
		held   *OpenError
		now    time.Time
		want   time.Duration
		wantOK bool
	}{
		{"off: fail fast", Policy{}, open(time.Second), t0, 0, false},
		{"open, half-opens within the wait", wait, open(30 * time.Second), t0, 30 * time.Second, true},
		{"open, half-opens exactly at the end", wait, open(45 * time.Second), t0, 45 * time.Second, true},
		{"open, half-opens after the wait: fail now", wait, open(46 * time.Second), t0, 0, false},
		{"open again later in the wait", wait, open(30 * time.Second), t0.Add(20 * time.Second), 0, false},
		{"open again, still within", wait, open(20 * time.Second), t0.Add(20 * time.Second), 20 * time.Second, true},
		{"due now: a short step, not a busy loop", wait, open(0), t0, time.Millisecond, true},
		{"probes out: wait for their verdict", wait, probing, t0, 500 * time.Millisecond, true},
		{"probes out, little wait left", wait, probing, t0.Add(44800 * time.Millisecond), 200 * time.Millisecond, true},
		{"wait spent", wait, probing, t0.Add(45 * time.Second), 0, false},
		{"verdict step follows the open time", Policy{BreakerWait: time.Minute, BreakerOpenTimeout: 3 * time.Second}, probing, t0, 50 * time.Millisecond, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := BreakerWaitStep(c.p, c.held, t0, c.now)
			if got != c.want || ok != c.wantOK {
				t.Errorf("BreakerWaitStep = %s, %v; want %s, %v", got, ok, c.want, c.wantOK)
			}
		})
	}
}

func TestVerdictPollBounds(t *testing.T) {
	for open, want := range map[time.Duration]time.Duration{
		0:                      500 * time.Millisecond, // the default 30 s
		100 * time.Millisecond: 10 * time.Millisecond,
		5 * time.Minute:        time.Second,
	} {
		if got := VerdictPoll(Policy{BreakerOpenTimeout: open}); got != want {
			t.Errorf("VerdictPoll(open %s) = %s, want %s", open, got, want)
		}
	}
}
