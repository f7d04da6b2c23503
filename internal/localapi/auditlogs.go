package localapi

import (
	"strings"
	"time"
)

// maxAuditEntries (events.go) bounds the entries of world events too.

// GET /api/audit_logs (docs/api.md, "Audit logs"): the player's entries,
// recorded by emit (events.go) for every mutation of its world. Read-only.
// The scope is audit_logs:read (or "*").
func (s *Server) auditLogRoutes(rt *router) {
	rt.add("GET", "/api/audit_logs", "audit_logs:read", s.listAuditLogs)
}

// auditLogView is an entry as the API shows it.
type auditLogView struct {
	ID           int64          `json:"id"`
	ResourceType string         `json:"resource_type"`
	ResourceID   *int64         `json:"resource_id"`
	Action       string         `json:"action"`
	Channel      string         `json:"channel"`
	ActorType    string         `json:"actor_type"`
	ActorID      *int64         `json:"actor_id"`
	Metadata     map[string]any `json:"metadata"`
	CreatedAt    time.Time      `json:"created_at"`
}

func (e *auditEntry) view() auditLogView {
	v := auditLogView{ID: e.ID, ResourceType: e.ResourceType, ResourceID: e.ResourceID, Action: e.Action,
		Channel: e.Channel, ActorType: e.ActorType, Metadata: e.Metadata, CreatedAt: e.CreatedAt}
	if e.ActorID != 0 {
		id := e.ActorID
		v.ActorID = &id
	}
	if v.Metadata == nil {
		v.Metadata = map[string]any{}
	}
	return v
}

// listAuditLogs filters by resource_type and channel (exact),
// action_prefix (the action starts with it, case-insensitive), q (in the
// action or the resource type) and the creation dates; sorts by
// created_at (or id).
func (s *Server) listAuditLogs(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "id"}})
	if err != nil {
		return nil, err
	}
	q := rc.c.query
	resourceType, channel := q.Get("resource_type"), q.Get("channel")
	prefix := strings.ToLower(q.Get("action_prefix"))
	var views []auditLogView
	for _, e := range rc.st.AuditLogs {
		switch {
		case e.Player != rc.player,
			resourceType != "" && e.ResourceType != resourceType,
			channel != "" && e.Channel != channel,
			prefix != "" && !strings.HasPrefix(strings.ToLower(e.Action), prefix),
			!lq.search(e.Action, e.ResourceType),
			!lq.inTime(e.CreatedAt):
			continue
		}
		views = append(views, e.view())
	}
	return listAnswer(views, lq, func(v auditLogView, col string) any {
		if col == "id" {
			return v.ID
		}
		return v.CreatedAt
	}), nil
}

// worldEvent is an event the world's own clock makes happen (a build that
// ends, a rollout that finishes, a teardown that removes a playground):
// settle notes it, and the next request records and sends it
// (flushWorldEvents). No key made it: its entry's actor is the system.
type worldEvent struct {
	player       int64
	event        string
	resourceType string
	id           int64
	data         any
	at           time.Time
}

// pgSnapshot is a playground's status before settle moves it.
type pgSnapshot struct {
	pg     *playground
	status string
}

// playgroundSnapshot records each playground's status, for
// notePlaygroundChanges.
func (st *state) playgroundSnapshot() []pgSnapshot {
	out := make([]pgSnapshot, 0, len(st.Playgrounds))
	for _, pg := range st.Playgrounds {
		out = append(out, pgSnapshot{pg, pg.Status})
	}
	return out
}

// notePlaygroundChanges notes playground.status.changed for each
// playground whose status moved since before, and playground.destroyed
// for each one removed.
func (st *state) notePlaygroundChanges(before []pgSnapshot, now time.Time) {
	for _, b := range before {
		pg := b.pg
		switch {
		case findByID(st.Playgrounds, pg.ID) != pg:
			st.pendingEvents = append(st.pendingEvents, worldEvent{player: pg.Owner, event: "playground.destroyed",
				resourceType: "Playground", id: pg.ID, data: st.playgroundView(pg, now), at: now})
		case pg.Status != b.status:
			data := struct {
				playgroundView
				PreviousStatus string `json:"previous_status"`
			}{st.playgroundView(pg, now), b.status}
			st.pendingEvents = append(st.pendingEvents, worldEvent{player: pg.Owner, event: "playground.status.changed",
				resourceType: "Playground", id: pg.ID, data: data, at: now})
		}
	}
}

// flushWorldEvents records the events settle noted and queues their
// webhooks. It also wakes this emulator's sender when deliveries are due
// that no sender has claimed: ones left by a process that ended (each
// command of --api-url local is its own process) are posted by the next
// one that serves a request.
func (rc *reqCtx) flushWorldEvents() {
	st := rc.st
	if st.deliveriesDue(rc.now) {
		rc.s.kickWebhooks()
	}
	if len(st.pendingEvents) == 0 {
		return
	}
	queued := false
	for _, ev := range st.pendingEvents {
		e := &auditEntry{ID: st.nextID("audit_log"), Player: ev.player, ResourceType: ev.resourceType, Action: ev.event,
			Channel: "api", ActorType: "System", Metadata: map[string]any{}, CreatedAt: ev.at}
		if ev.id != 0 {
			id := ev.id
			e.ResourceID = &id
		}
		st.AuditLogs = append(st.AuditLogs, e)
		if st.queueFor(ev.player, ev.event, ev.data, ev.at) {
			queued = true
		}
	}
	if n := len(st.AuditLogs); n > maxAuditEntries {
		st.AuditLogs = append([]*auditEntry(nil), st.AuditLogs[n-maxAuditEntries:]...)
	}
	st.pendingEvents = nil
	if queued {
		rc.s.kickWebhooks()
	}
}
