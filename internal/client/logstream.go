package client

import (
	"context"
	"time"
)

// LogLine is one line of a playground's live log.
type LogLine struct {
	Seq       int64  `json:"seq"`
	Line      string `json:"line"`
	Service   string `json:"service"`
	Stream    string `json:"stream"`
	Timestamp string `json:"timestamp"`
}

// FollowOptions shape a live log stream.
type FollowOptions struct {
	Service string // one service (ContainerLogsChannel); "" → every service
	Tail    int    // replay the last N lines first; 0 → only new lines
	Since   int64  // replay every line after this sequence number (wins over Tail)

	// PingInterval is the server's ping period; two of them without a ping
	// mean the connection is dead (0 → 3s, ActionCable's default).
	PingInterval time.Duration
}

// DefaultPingInterval is ActionCable's ping period.
const DefaultPingInterval = 3 * time.Second

// FollowLogs streams a playground's log lines to emit, in order, until ctx
// ends (a CANCELLED *Error), emit fails (its error), or the stream cannot
// be kept up (a typed *Error).
//
// The stream survives a flaky connection (contract §7). A dropped
// connection, or one silent for two ping intervals, is reconnected through
// the same classifier, backoff and marquee breaker as any request, and
// resumes after the last line emitted, so no line is emitted twice and none
// is lost while the server can replay it. A session_expired message gets
// exactly one recovery (fresh cable URL, reconnect, resubscribe); further
// expiries are ignored until a subscription is confirmed again, and a
// session that expires again before making any progress ends the stream.
func (s *PlaygroundsService) FollowLogs(ctx context.Context, ref string, opts FollowOptions, emit func(LogLine) error) error {
	f, err := newFollower(ctx, s.c, ref, opts, emit)
	if err != nil {
		return err
	}
	return f.run(ctx)
}
