package cable

import (
	"context"
	"time"
)

// stream feeds one subscription its log lines, in order, from a starting
// sequence number on.
type stream struct {
	sess       *session
	identifier string
	log        playgroundLog
	service    string // "" → every service
}

// firstSeq is where a subscription starts: after since when given (but no
// earlier than what is retained), else at the last tail matching lines,
// else at the next line to be produced.
func (st *stream) firstSeq(tail, since *int64) int64 {
	now := st.sess.srv.cfg.Now()
	produced := st.log.produced(now)
	oldest := st.log.oldest(now)
	switch {
	case since != nil:
		return max(*since+1, oldest)
	case tail != nil && *tail > 0:
		n, found := produced, int64(0)
		for ; n >= oldest; n-- {
			if st.log.matches(n, st.service) {
				found++
				if found == *tail {
					return n
				}
			}
		}
		return oldest
	}
	return produced + 1
}

// run sends lines next, next+1, ... as they come into existence, until
// the subscription ends, its session expires or the connection drops.
func (st *stream) run(ctx context.Context, next int64) {
	srv := st.sess.srv
	for {
		for avail := st.log.produced(srv.cfg.Now()); next <= avail; next++ {
			if !st.log.matches(next, st.service) {
				continue
			}
			if !st.send(ctx, next) {
				return
			}
		}
		// Sleep until the next line is due; never longer than one interval,
		// so an injected clock that jumps is noticed promptly.
		wait := min(st.log.dueAt(next).Sub(srv.cfg.Now()), st.log.interval)
		t := time.NewTimer(max(wait, time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// send delivers line n, or the fault that replaces it. It reports whether
// the stream goes on.
func (st *stream) send(ctx context.Context, n int64) bool {
	srv := st.sess.srv
	fault, count := srv.nextLineFault()
	switch fault {
	case drop:
		srv.count(func(s *Stats) { s.Drops++ })
		srv.cfg.Logf("cable: connection dropped before line %d", n)
		st.sess.abort()
		return false
	case expire:
		for i := 0; i < count; i++ {
			// Counted before the write, so a client that has seen the frame
			// always finds it in Stats.
			srv.count(func(s *Stats) { s.Expiries++ })
			if st.sess.write(ctx, channelFrame{Identifier: st.identifier, Message: expiredMessage(i)}) != nil {
				return false
			}
		}
		srv.cfg.Logf("cable: session_expired x%d before line %d", count, n)
		// The session is gone: this subscription streams nothing more.
		return false
	}
	srv.count(func(s *Stats) { s.Lines++ }) // before the write, as above
	return st.sess.write(ctx, channelFrame{Identifier: st.identifier, Message: st.log.line(n)}) == nil
}
