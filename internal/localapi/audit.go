package localapi

import "time"

// AuditOperation is one async operation the emulator started (an action,
// a destroy, ...), as a benchmark or test auditing the world sees it.
type AuditOperation struct {
	ID           string
	Kind         string // "rollout", "hard_restart", "stop", "start", "destroy", ...
	PlaygroundID int64
	CreatedAt    time.Time
}

// AuditPlayground is one playground as it stands.
type AuditPlayground struct {
	ID     int64
	Name   string
	Status string
}

// Audit returns the operations the state still keeps (finished ones are
// kept a day, at most maxKept of them) and every playground, settled to
// now, for comparing the emulator's world with a client's ledger.
func (s *Server) Audit() ([]AuditOperation, []AuditPlayground) {
	var ops []AuditOperation
	var pgs []AuditPlayground
	_ = s.store.update(s.now(), func(st *state) change {
		st.settle(s.now())
		for _, op := range st.Ops {
			ops = append(ops, AuditOperation{ID: op.ID, Kind: op.Kind, PlaygroundID: op.PlaygroundID, CreatedAt: op.CreatedAt})
		}
		for _, pg := range st.Playgrounds {
			pgs = append(pgs, AuditPlayground{ID: pg.ID, Name: pg.Name, Status: pg.Status})
		}
		return unchanged
	})
	return ops, pgs
}
