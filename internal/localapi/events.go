package localapi

import "time"

// Events (docs/api.md, "Events"): every mutation of the world that
// succeeds is recorded in the audit log and handed to the webhooks of the
// player it belongs to. An idempotent replay runs no handler, so it emits
// nothing again.

// auditEntry is one line of GET /api/audit_logs.
type auditEntry struct {
	ID           int64          `json:"id"`
	Player       int64          `json:"player"`
	ResourceType string         `json:"resource_type"` // the platform's model name: "Secret", "Playground", ...
	ResourceID   *int64         `json:"resource_id"`
	Action       string         `json:"action"` // the event: "secret.created"
	Channel      string         `json:"channel"`
	ActorType    string         `json:"actor_type"`
	ActorID      int64          `json:"actor_id"`
	Metadata     map[string]any `json:"metadata"`
	CreatedAt    time.Time      `json:"created_at"`
}

// maxAuditEntries bounds the audit log kept per emulator (oldest dropped).
const maxAuditEntries = 5000

// emit records event about the resource (its model name and id; id 0 for
// none) done by this request, and queues its webhooks with data, the
// resource as the API shows it.
func (rc *reqCtx) emit(event, resourceType string, id int64, data any) {
	e := &auditEntry{ID: rc.st.nextID("audit_log"), Player: rc.player, ResourceType: resourceType, Action: event,
		Channel: "api", ActorType: "ApiKey", Metadata: map[string]any{"request_id": rc.rid}, CreatedAt: rc.now}
	if id != 0 {
		e.ResourceID = &id
	}
	if rc.key != nil {
		e.ActorID = rc.key.ID
	}
	rc.st.AuditLogs = append(rc.st.AuditLogs, e)
	if n := len(rc.st.AuditLogs); n > maxAuditEntries {
		rc.st.AuditLogs = append([]*auditEntry(nil), rc.st.AuditLogs[n-maxAuditEntries:]...)
	}
	rc.s.queueWebhooks(rc, event, data)
}

// seedFamilies gives a new player what each family of resources seeds.
func (st *state) seedFamilies(player int64, now time.Time) {
	st.seedPlayspecs(player, now)
	st.seedProps(player, now)
	st.seedTemplates(player, now)
	st.seedAgents(player, now)
}
