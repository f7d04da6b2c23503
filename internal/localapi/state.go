package localapi

import (
	"sort"
	"time"
)

// stateVersion changes when the file layout does; older files are reseeded.
const stateVersion = 3

// state is everything the emulator remembers. It is one JSON document so a
// file-backed emulator can load, handle one request and save it whole.
type state struct {
	Version          int                    `json:"version"`
	SeededAt         time.Time              `json:"seeded_at"`
	NextPlaygroundID int64                  `json:"next_playground_id"`
	NextMarqueeID    int64                  `json:"next_marquee_id"`
	Marquees         []*marquee             `json:"marquees"`
	Playgrounds      []*playground          `json:"playgrounds"`
	Ops              map[string]*operation  `json:"operations"`
	Idempotency      map[string]*idemEntry  `json:"idempotency"`
	Rate             map[string]*rateWindow `json:"rate_limits"`
	CableTokens      map[string]time.Time   `json:"cable_tokens"` // sha256 of token → expiry
	Chaos            *chaosSetting          `json:"chaos,omitempty"`
	KeySerial        int64                  `json:"key_serial"` // ssh keys minted so far
	Stats            Stats                  `json:"stats"`

	Players   []*player        `json:"players"`
	APIKeys   []*apiKey        `json:"api_keys"`
	NextIDs   map[string]int64 `json:"next_ids"` // the last id handed out, per kind (nextID)
	AuditLogs []*auditEntry    `json:"audit_logs"`

	// Each family of resources keeps its part of the state in its own file.
	playspecState
	secretState
	propState
	webhookState
	templateState
	agentState
	trickState
}

// chaosSetting is the last spec set through SetChaos, shared across processes.
type chaosSetting struct {
	Spec  string    `json:"spec"`
	Since time.Time `json:"since"`
}

// seedState is an empty world; Server.seedPlayers adds the players, their
// keys and what each starts with (seedWorld).
func seedState(now time.Time) *state {
	st := &state{Version: stateVersion, SeededAt: now}
	st.normalize()
	return st
}

// seedWorld gives a new player marquees (two funded, one whose paid_until
// is in the past) and whatever else each family seeds.
func (st *state) seedWorld(player int64, now time.Time) {
	funded := now.AddDate(0, 1, 0)
	for _, m := range []struct {
		name string
		paid time.Time
		tls  bool
	}{
		{"local", funded, false},
		{"prod-eu", funded, true},
		{"unpaid", now.AddDate(0, 0, -3), false},
	} {
		st.NextMarqueeID++
		mq := &marquee{
			ID: st.NextMarqueeID, Owner: player, Name: m.name, Host: m.name + ".fibe.test", Port: 22, User: "fibe",
			Status: "active", BuildPlatform: "linux/amd64", HasSSHKey: true,
			PaidUntil: m.paid, CreatedAt: now, UpdatedAt: now,
		}
		if m.tls {
			mq.DomainsInput, mq.HTTPSEnabled = m.name+".fibe.test", true
			mq.TLSCertificateSource, mq.ACMEEmail = "letsencrypt", "ops@fibe.test"
		}
		st.Marquees = append(st.Marquees, mq)
	}
	st.seedFamilies(player, now)
}

// normalize fills the maps a decoded or fresh state may lack.
func (st *state) normalize() {
	if st.Ops == nil {
		st.Ops = map[string]*operation{}
	}
	if st.Idempotency == nil {
		st.Idempotency = map[string]*idemEntry{}
	}
	if st.Rate == nil {
		st.Rate = map[string]*rateWindow{}
	}
	if st.CableTokens == nil {
		st.CableTokens = map[string]time.Time{}
	}
	if st.NextIDs == nil {
		st.NextIDs = map[string]int64{}
	}
	st.Stats.init()
}

// retention bounds what the state keeps: finished operations and idempotency
// entries live for a day, like the real API's cache, and at most maxKept of
// each survive, so a long benchmark does not grow the state file without end.
const (
	retention = 24 * time.Hour
	maxKept   = 2000
)

// settle applies every transition whose time has come, so progress is a
// function of wall time and whichever process looks next sees it.
func (st *state) settle(now time.Time) {
	before := st.playgroundSnapshot()
	for _, pg := range st.Playgrounds {
		if pg.Status == "creating" && !now.Before(pg.ReadyAt) {
			pg.Status = "running"
			pg.UpdatedAt = pg.ReadyAt
		}
	}
	ops := make([]*operation, 0, len(st.Ops))
	for _, op := range st.Ops {
		if !op.Done {
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].StartAt.Before(ops[j].StartAt) })
	for _, op := range ops {
		if !op.Started && !now.Before(op.StartAt) {
			op.Started = true
			st.startOp(op)
		}
		if op.Started && !now.Before(op.DoneAt) {
			op.Done = true
			st.finishOp(op)
		}
	}
	st.settleJobs(now) // after the operations: a job ends only on a playground still running
	st.notePlaygroundChanges(before, now)
	st.prune(now)
}

func (st *state) prune(now time.Time) {
	for id, op := range st.Ops {
		if op.Done && now.Sub(op.DoneAt) > retention {
			delete(st.Ops, id)
		}
	}
	for k, e := range st.Idempotency {
		if now.Sub(e.CreatedAt) > retention {
			delete(st.Idempotency, k)
		}
	}
	for k, exp := range st.CableTokens {
		if now.After(exp) {
			delete(st.CableTokens, k)
		}
	}
	for k, w := range st.Rate {
		if now.Sub(w.Start) > retention {
			delete(st.Rate, k)
		}
	}
	if len(st.Ops) > maxKept {
		dropOldest(st.Ops, maxKept, func(op *operation) (time.Time, bool) { return op.DoneAt, op.Done })
	}
	if len(st.Idempotency) > maxKept {
		dropOldest(st.Idempotency, maxKept, func(e *idemEntry) (time.Time, bool) {
			return e.CreatedAt, !now.Before(e.InFlightUntil)
		})
	}
}

// dropOldest removes the oldest removable entries of m until keep remain
// (or nothing removable is left).
func dropOldest[V any](m map[string]V, keep int, age func(V) (time.Time, bool)) {
	type aged struct {
		key string
		at  time.Time
	}
	var cands []aged
	for k, v := range m {
		if at, ok := age(v); ok {
			cands = append(cands, aged{k, at})
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].at.Before(cands[j].at) })
	for _, c := range cands {
		if len(m) <= keep {
			return
		}
		delete(m, c.key)
	}
}
