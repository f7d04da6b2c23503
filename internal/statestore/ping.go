package statestore

import (
	"context"
	"time"
)

// Ping sends one PING within the store's timeout and returns how long the
// answer took (fibe doctor).
func (s *Redis) Ping() (time.Duration, error) {
	start := time.Now()
	err := s.call("ping", func(ctx context.Context) error { return s.rdb.Ping(ctx).Err() })
	return time.Since(start), err
}
