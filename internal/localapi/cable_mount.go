package localapi

import (
	"time"

	"github.com/fibegg/fibe/internal/localapi/cable"
)

// cableMount is the /cable endpoint (ActionCable log streams).
type cableMount = *cable.Server

// mountCable builds the stream server over this emulator's keys, stream
// tokens and playgrounds.
func (s *Server) mountCable() cableMount {
	return cable.New(cable.Config{
		ValidKey: s.validKey,
		ValidToken: func(token string) bool {
			ok := false
			_ = s.store.update(s.now(), func(st *state) change {
				exp, found := st.CableTokens[tokenHash(token)]
				ok = found && s.now().Before(exp)
				return unchanged
			})
			return ok
		},
		Lookup: func(ref string) (int64, []string, bool) {
			var (
				id       int64
				services []string
				ok       bool
			)
			_ = s.store.update(s.now(), func(st *state) change {
				pg := st.findPlayground(ref)
				if pg == nil {
					return unchanged
				}
				id, ok = pg.ID, true
				if ps := st.playspecByID(pg.PlayspecID); ps != nil {
					services = ps.serviceNames()
				}
				return unchanged
			})
			return id, services, ok
		},
		Status: func(ref string) string {
			status := ""
			_ = s.store.update(s.now(), func(st *state) change {
				if pg := st.findPlayground(ref); pg != nil {
					status = pg.Status
				}
				return unchanged
			})
			return status
		},
		// --speed applies to log output too; pings keep the protocol's
		// 3 s period because clients time out on missed pings by it.
		LineInterval: s.scaled(200 * time.Millisecond),
		Seed:         s.cfg.Seed,
		Now:          s.cfg.Now,
		Logf:         s.cfg.Logf,
	})
}

// applyCableFaults hands the cable-* chaos keys to the stream server.
func (s *Server) applyCableFaults(f cableFaults) {
	if s.cable == nil {
		return
	}
	s.cable.SetFaults(cable.Faults{
		ExpireOnce: f.ExpireOnce, ExpireRate: f.ExpireRate, ExpireBurst: f.ExpireBurst,
		DropRate: f.DropRate, DropAfter: f.DropAfter, RejectRate: f.RejectRate, NoPing: f.NoPing,
	})
}

func (s *Server) closeCable() {
	if s.cable != nil {
		s.cable.Close()
	}
}

// CableStats counts what the /cable endpoint did (connections, expiries,
// terminal sessions, ...), for tests.
func (s *Server) CableStats() cable.Stats {
	if s.cable == nil {
		return cable.Stats{}
	}
	return s.cable.Stats()
}
