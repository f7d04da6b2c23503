package reliability

import (
	"context"
	"time"
)

// Clock is the source of time for every wait in the contract, so tests can
// drive backoff, breaker timeouts and poll deadlines without real sleeps.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever is first, and returns
	// ctx.Err() in the latter case.
	Sleep(ctx context.Context, d time.Duration) error
}

// SystemClock is the real clock.
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
