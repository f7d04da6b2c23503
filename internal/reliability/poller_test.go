package reliability

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
)

func TestPollerIntervalRetryAfterAndDeadline(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(0, 0))
	p := Poller{Interval: time.Second, Timeout: 10 * time.Second, Ceiling: 30 * time.Second, Clock: clock}
	err := p.Run(context.Background(), func(ctx context.Context, n int) (bool, time.Duration, error) {
		switch n {
		case 2:
			return false, 3 * time.Second, nil // Retry-After on a poll answer
		case 3:
			return false, time.Hour, nil // capped by the ceiling, then by the deadline
		}
		return n == 5, 0, nil
	})
	if !errors.Is(err, ErrPollTimeout) {
		t.Fatalf("err = %v, want ErrPollTimeout", err)
	}
	got := clock.Sleeps()
	want := []time.Duration{time.Second, 3 * time.Second, 6 * time.Second} // the last is what is left before the deadline
	if len(got) != len(want) {
		t.Fatalf("sleeps %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sleeps %v, want %v", got, want)
		}
	}
}

func TestPollerStopsWhenDoneOrFailed(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(0, 0))
	p := NewPoller(Policy{}, clock)
	polls := 0
	if err := p.Run(context.Background(), func(context.Context, int) (bool, time.Duration, error) {
		polls++
		return polls == 3, 0, nil
	}); err != nil || polls != 3 {
		t.Fatalf("err %v after %d polls", err, polls)
	}
	boom := errors.New("boom")
	if err := p.Run(context.Background(), func(context.Context, int) (bool, time.Duration, error) { return false, 0, boom }); err != boom {
		t.Fatalf("err = %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	err := p.Run(ctx, func(context.Context, int) (bool, time.Duration, error) { cancel(); return false, 0, nil })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// A poll that would go on retrying past the deadline is cut off by it:
// its context ends shortly after, and the wait ends as a poll timeout, not
// as the caller's cancellation.
func TestPollerDeadlineBoundsAPoll(t *testing.T) {
	p := Poller{Interval: 10 * time.Millisecond, Timeout: 100 * time.Millisecond, Clock: SystemClock()}
	started := time.Now()
	err := p.Run(context.Background(), func(ctx context.Context, n int) (bool, time.Duration, error) {
		select {
		case <-ctx.Done():
			return false, 0, ctx.Err()
		case <-time.After(30 * time.Second):
			return false, 0, errors.New("the poll's context never ended")
		}
	})
	if !errors.Is(err, ErrPollTimeout) {
		t.Fatalf("err = %v, want ErrPollTimeout", err)
	}
	if took := time.Since(started); took > 10*time.Second {
		t.Fatalf("took %s", took)
	}
}

// Failed polls do not end the wait: it goes on to its deadline, paced by
// the interval or the failure's own wait, and the deadline names the last
// failure. A poll that answers clears it.
func TestPollerWaitsThroughFailedPolls(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(0, 0))
	p := Poller{Interval: time.Second, Timeout: 20 * time.Second, Ceiling: 30 * time.Second, Clock: clock}
	sick := errors.New("503 after the retries")
	open := errors.New("breaker open")
	polls := 0
	err := p.Run(context.Background(), func(ctx context.Context, n int) (bool, time.Duration, error) {
		polls++
		switch {
		case n <= 4:
			return false, 0, PollFailed(sick, 0)
		case n == 5:
			return false, 0, nil
		default:
			return false, 0, PollFailed(open, 7*time.Second)
		}
	})
	var te *PollTimeoutError
	if !errors.Is(err, ErrPollTimeout) || !errors.As(err, &te) || te.Last != open {
		t.Fatalf("err = %v, want a poll timeout naming the last failure", err)
	}
	got := clock.Sleeps()
	want := []time.Duration{time.Second, time.Second, time.Second, time.Second, time.Second, 7 * time.Second, 7 * time.Second, time.Second}
	if len(got) != len(want) || polls != 9 {
		t.Fatalf("%d polls, sleeps %v, want %v", polls, got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("sleeps %v, want %v", got, want)
		}
	}
}

// A device login polls after one interval, widens the interval by the
// step on every slow_down (to a capped Retry-After when that is longer)
// and keeps the wider interval for every later poll.
func TestDevicePollerWaitsFirstAndSlowsDown(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(0, 0))
	p := NewDevicePoller(Policy{}, 2, 120, clock)
	if p.Timeout != 2*time.Minute || p.Interval != 2*time.Second || !p.WaitFirst {
		t.Fatalf("poller %+v", p)
	}
	err := p.Run(context.Background(), func(ctx context.Context, n int) (bool, time.Duration, error) {
		switch n {
		case 2:
			return false, 0, SlowDown(0) // slow_down: 2 s → 7 s
		case 4:
			return false, 0, SlowDown(time.Hour) // a 429's Retry-After: capped at 30 s
		}
		return n == 6, 0, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{2 * time.Second, 2 * time.Second, 7 * time.Second, 7 * time.Second, 30 * time.Second, 30 * time.Second}
	if got := clock.Sleeps(); !slices.Equal(got, want) {
		t.Fatalf("sleeps %v, want %v", got, want)
	}
}

// The server's lifetime bounds the wait; missing numbers take the defaults.
func TestDevicePollerExpiresAndDefaults(t *testing.T) {
	clock := reliabilitytest.NewClock(time.Unix(0, 0))
	p := NewDevicePoller(Policy{}, 1, 3, clock)
	polls := 0
	err := p.Run(context.Background(), func(context.Context, int) (bool, time.Duration, error) { polls++; return false, 0, nil })
	if !errors.Is(err, ErrPollTimeout) || polls != 3 {
		t.Fatalf("err %v after %d polls, want ErrPollTimeout after 3", err, polls)
	}
	d := NewDevicePoller(Policy{}, 0, 0, clock)
	if d.Interval != DefaultDeviceInterval || d.Timeout != DefaultDeviceExpiry {
		t.Errorf("defaults %+v", d)
	}
	if NewDevicePoller(Policy{}, -3, 10, clock).Interval != DefaultDeviceInterval {
		t.Error("a negative interval is not the default")
	}
}
