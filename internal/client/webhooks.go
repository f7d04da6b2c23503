package client

import (
	"context"
	"net/http"
	"time"
)

// WebhookEndpoint is a receiver of signed event deliveries
// (docs/api.md, "Webhooks"). Secret is set only in the answer to its
// create (or to an update that rotates it).
type WebhookEndpoint struct {
	ID              int64               `json:"id"`
	URL             string              `json:"url"`
	Events          []string            `json:"events"`
	EventFilters    map[string]any      `json:"event_filters,omitempty"`
	ToolFilters     map[string][]string `json:"tool_filters,omitempty"`
	Description     string              `json:"description,omitempty"`
	Enabled         bool                `json:"enabled"`
	FailureCount    int                 `json:"failure_count"`
	LastTriggeredAt *time.Time          `json:"last_triggered_at,omitempty"`
	CreatedAt       time.Time           `json:"created_at"`
	UpdatedAt       time.Time           `json:"updated_at"`
	Secret          string              `json:"secret,omitempty"`
}

// WebhookDelivery is one event sent (or being sent) to an endpoint:
// Status is pending, delivered or failed; Attempt counts the requests made
// so far; ResponseCode is the receiver's last status, absent when it never
// answered.
type WebhookDelivery struct {
	ID           int64      `json:"id"`
	EventType    string     `json:"event_type"`
	Status       string     `json:"status"`
	ResponseCode *int       `json:"response_code"`
	Attempt      int        `json:"attempt"`
	DeliveredAt  *time.Time `json:"delivered_at"`
	CreatedAt    time.Time  `json:"created_at"`
}

// AuditLog is one entry of the account's audit log: a mutation, who made
// it, through which channel (api or ui), on which resource.
type AuditLog struct {
	ID           int64          `json:"id"`
	ResourceType string         `json:"resource_type"`
	ResourceID   *int64         `json:"resource_id"`
	Action       string         `json:"action"`
	Channel      string         `json:"channel"`
	ActorType    string         `json:"actor_type,omitempty"`
	ActorID      *int64         `json:"actor_id,omitempty"`
	Metadata     map[string]any `json:"metadata,omitempty"`
	CreatedAt    time.Time      `json:"created_at"`
}

// WebhooksService is /api/webhook_endpoints: the generic verbs (a ref is
// a numeric id), test deliveries, the delivery history and the event
// types.
type WebhooksService struct{ *Collection[WebhookEndpoint] }

// Create creates an endpoint. A replayed create is looked up again, as
// for every resource, but keeps the secret of the replayed answer: it is
// the only answer that ever holds it, and a create retried after a lost
// answer would otherwise never show it.
func (s *WebhooksService) Create(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*WebhookEndpoint, *Response, error) {
	var first WebhookEndpoint
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: s.Path, body: s.wrap(body), mo: mo, wo: wo}, &first)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	now, err := afterReplayedCreate(ctx, meta, mo, s.Wrapper, "", first.ID, s.Get)
	if err != nil {
		return nil, meta, err
	}
	if now != nil {
		now.Secret = first.Secret
		return now, meta, nil
	}
	return &first, meta, nil
}

// Test queues a webhook.test delivery to the endpoint and returns it
// (pending: it is sent after the answer).
func (s *WebhooksService) Test(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*WebhookDelivery, *Response, error) {
	var d WebhookDelivery
	meta, err := s.Member(ctx, http.MethodPost, ref, "test_deliveries", nil, mo, wo, &d)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return &d, meta, nil
}

// Deliveries returns one page of the endpoint's deliveries, newest first
// unless o.Sort says otherwise; o.Status filters by status.
func (s *WebhooksService) Deliveries(ctx context.Context, ref string, o ListOptions) ([]WebhookDelivery, *ListMeta, error) {
	var env listEnvelope[WebhookDelivery]
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: filteredQuery(s.memberPath(ref, "deliveries"), o)}, &env); err != nil {
		return nil, nil, err
	}
	if env.Data == nil {
		env.Data = []WebhookDelivery{}
	}
	return env.Data, &env.Meta, nil
}

// EventTypes returns the events an endpoint may subscribe to.
func (s *WebhooksService) EventTypes(ctx context.Context) ([]string, *Response, error) {
	var out struct {
		EventTypes []string `json:"event_types"`
	}
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: "/api/webhook_event_types"}, &out)
	if err != nil {
		return nil, meta, err
	}
	if out.EventTypes == nil {
		out.EventTypes = []string{}
	}
	return out.EventTypes, meta, nil
}

// AuditLogsService is /api/audit_logs, read-only: List and ListAll with
// the filters resource_type, channel and action_prefix in
// ListOptions.Filters, plus q, the dates and sort.
type AuditLogsService struct{ *Collection[AuditLog] }
