package stream

import (
	"context"
	"encoding/json"
	"time"

	"github.com/fibegg/fibe/internal/client"
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

	// PingInterval is the liveness interval until the server has shown
	// its own by two pings (0 → 3s, ActionCable's default).
	PingInterval time.Duration
}

// Follow streams a playground's log lines to emit, in order, until ctx
// ends (a CANCELLED *client.Error), emit fails (its error), or the stream
// cannot be kept up (a typed *client.Error).
//
// The stream survives a flaky connection (docs/contract.md §7). A dropped
// connection, or one silent for two ping intervals, is reconnected through
// the same classifier, backoff and marquee breaker as any request, and
// resumes after the last line emitted, so no line is emitted twice and none
// is lost while the server can replay it. A session_expired message gets
// exactly one recovery; further expiries are ignored until a subscription
// is confirmed again. A stream that cannot make progress (it keeps
// expiring, its renewals are refused, it keeps dropping) ends after the
// policy's retries: SESSION_EXPIRED for expiries, the last drop's error
// otherwise.
func Follow(ctx context.Context, c *client.Client, ref string, opts FollowOptions, emit func(LogLine) error) error {
	pg, _, err := c.Playgrounds.Get(ctx, ref)
	if err != nil {
		return err
	}
	l := &logs{opts: opts, playground: pg.ID, emit: emit, last: opts.Since}
	return newKeeper(c, l, pg, opts.PingInterval).run(ctx, nil)
}

// logs is the log channel: it resumes after the last line emitted.
type logs struct {
	opts       FollowOptions
	playground int64
	emit       func(LogLine) error
	last       int64 // seq of the last line emitted
	emitted    bool
	duplicates int // replayed lines dropped because they were already emitted
}

// logIdentifier is the subscription identifier of a log channel. Field
// order is fixed so the identifier string is stable.
type logIdentifier struct {
	Channel      string `json:"channel"`
	PlaygroundID int64  `json:"playground_id"`
	ServiceName  string `json:"service_name,omitempty"`
	Tail         int    `json:"tail,omitempty"`
	Since        *int64 `json:"since,omitempty"`
}

func (id logIdentifier) String() string {
	b, _ := json.Marshal(id)
	return string(b)
}

func (l *logs) what() string { return "log stream" }

// identifier is the subscription for the next connection: after the last
// line emitted when there is one, else as the caller asked. A reconnect
// before any line arrived cannot resume exactly: the protocol tells the
// client no sequence number until a line comes, so lines produced between
// the first subscription and the reconnect may be missed (the window is
// the reconnect delay; a stream with a Since cursor is not affected).
func (l *logs) identifier() string {
	id := logIdentifier{Channel: playgroundLogsChannel, PlaygroundID: l.playground}
	if l.opts.Service != "" {
		id.Channel, id.ServiceName = containerLogsChannel, l.opts.Service
	}
	switch {
	case l.emitted || l.opts.Since > 0:
		since := l.last
		id.Since = &since
	case l.opts.Tail > 0:
		id.Tail = l.opts.Tail
	}
	return id.String()
}

// parseLogMessage reads a log message: {"type":"log","seq":...} (or, from
// older servers, no type and a positive seq).
func parseLogMessage(raw json.RawMessage) (LogLine, bool) {
	var msg struct {
		Type string `json:"type"`
		LogLine
	}
	if json.Unmarshal(raw, &msg) != nil {
		return LogLine{}, false
	}
	if msg.Type == "log" || (msg.Type == "" && msg.Seq > 0) {
		return msg.LogLine, true
	}
	return LogLine{}, false
}

// message emits a line unless it was emitted already (a replay overlaps
// what the previous connection delivered).
func (l *logs) message(raw json.RawMessage) (bool, error) {
	line, ok := parseLogMessage(raw)
	if !ok {
		return false, nil
	}
	if (l.emitted || l.opts.Since > 0) && line.Seq <= l.last {
		l.duplicates++
		return false, nil
	}
	if err := l.emit(line); err != nil {
		return false, err
	}
	l.last, l.emitted = line.Seq, true
	return true, nil
}

func (l *logs) confirmed(bool, int) error { return nil }
func (l *logs) outgoing(Input) (any, int) { return nil, 0 }
func (l *logs) oneShot() bool             { return false }
func (l *logs) details() map[string]any   { return map[string]any{"last_seq": l.last} }
