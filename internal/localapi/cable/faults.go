package cable

import "time"

// Faults are the misbehaviours the server can be told to show. The zero
// value is a well-behaved server.
type Faults struct {
	// ExpireOnce sends one session_expired on the next log message of any
	// subscription (armed again by each SetFaults call that sets it).
	ExpireOnce bool
	// ExpireRate is the probability, per log message, of a session_expired
	// in its place.
	ExpireRate float64
	// ExpireBurst sends this many session_expired messages back to back on
	// the next log message of any subscription (armed by each SetFaults).
	ExpireBurst int
	// DropRate is the probability, per log message, of dropping the
	// connection (no close frame) instead of sending it.
	DropRate float64
	// DropAfter drops every connection this long (wall clock) after it
	// opened, or after the SetFaults call that set it, whichever is later.
	DropAfter time.Duration
	// RejectRate is the probability that a subscribe is rejected.
	RejectRate float64
	// NoPing stops ping frames.
	NoPing bool
}

// pendingFaults are the one-shot faults not yet delivered.
type pendingFaults struct {
	expireOnce  bool
	expireBurst int
	setAt       time.Time
}

// SetFaults replaces the active faults and re-arms the one-shot ones.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	s.faults = f
	s.pending = pendingFaults{expireOnce: f.ExpireOnce, expireBurst: f.ExpireBurst, setAt: time.Now()}
	open := make([]*session, 0, len(s.conns))
	for c := range s.conns {
		open = append(open, c)
	}
	s.mu.Unlock()
	for _, c := range open {
		c.faultsChanged()
	}
}

// Faults returns the active faults.
func (s *Server) Faults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults
}

// lineFault is what happens to one outgoing log message.
type lineFault int

const (
	deliver lineFault = iota
	expire            // replace it with session_expired (expireCount times)
	drop              // drop the connection
)

// nextLineFault rolls the dice for one log message. It returns how many
// session_expired messages to send when the answer is expire.
func (s *Server) nextLineFault() (lineFault, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults
	switch {
	case s.pending.expireBurst > 0:
		n := s.pending.expireBurst
		s.pending.expireBurst = 0
		return expire, n
	case s.pending.expireOnce:
		s.pending.expireOnce = false
		return expire, 1
	case f.DropRate > 0 && s.rng.Float64() < f.DropRate:
		return drop, 0
	case f.ExpireRate > 0 && s.rng.Float64() < f.ExpireRate:
		return expire, 1
	}
	return deliver, 0
}

// rejectSubscribe rolls the dice for one subscribe command.
func (s *Server) rejectSubscribe() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.RejectRate > 0 && s.rng.Float64() < s.faults.RejectRate
}

// pingsOn reports whether ping frames are being sent.
func (s *Server) pingsOn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.faults.NoPing
}

// dropDeadline returns when a connection opened at start must be dropped,
// or the zero time when no drop is scheduled.
func (s *Server) dropDeadline(start time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.faults.DropAfter <= 0 {
		return time.Time{}
	}
	from := start
	if s.pending.setAt.After(from) {
		from = s.pending.setAt
	}
	return from.Add(s.faults.DropAfter)
}
