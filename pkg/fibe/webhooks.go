package fibe

import (
	"context"
	"iter"
	"strconv"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// WebhookEndpoint is a receiver of signed event deliveries. Secret is set
// only in the answer to its create (and to an update that rotates it):
// keep it then, it is never shown again.
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

// WebhookDelivery is one event sent, or being sent, to an endpoint:
// Status is "pending", "delivered" or "failed"; Attempt counts the
// requests made; ResponseCode is the receiver's last status (nil when it
// never answered).
type WebhookDelivery struct {
	ID           int64      `json:"id"`
	EventType    string     `json:"event_type"`
	Status       string     `json:"status"`
	ResponseCode *int       `json:"response_code"`
	Attempt      int        `json:"attempt"`
	DeliveredAt  *time.Time `json:"delivered_at"`
	CreatedAt    time.Time  `json:"created_at"`
}

// AuditLog is one entry of the account's audit log.
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

// WebhookListOptions are ListOptions plus the endpoints' own filters: a
// URL substring, and enabled or not (nil: both).
type WebhookListOptions struct {
	ListOptions
	URL     string
	Enabled *bool
}

// AuditLogListOptions are ListOptions plus the audit log's filters: the
// resource type (exact: "Playground", "Secret"), the channel ("api" or
// "ui") and the start of the action ("secret", "playground.status").
type AuditLogListOptions struct {
	ListOptions
	ResourceType, Channel, ActionPrefix string
}

// WebhooksService is the webhook endpoints: /api/webhook_endpoints. A ref
// is an endpoint's numeric id.
type WebhooksService struct{ c *Client }

// List returns one page of endpoints (never their secrets).
func (s *WebhooksService) List(ctx context.Context, o *WebhookListOptions) ([]*WebhookEndpoint, *Response, error) {
	var lo WebhookListOptions
	if o != nil {
		lo = *o
	}
	eng := lo.engine()
	eng.Filters = map[string]string{"url": lo.URL}
	if lo.Enabled != nil {
		eng.Filters["enabled"] = strconv.FormatBool(*lo.Enabled)
	}
	return listPage[WebhookEndpoint](ctx, s.c, lo.ListOptions, s.c.c.Webhooks.List, eng)
}

// All iterates lazily over every endpoint o selects.
func (s *WebhooksService) All(ctx context.Context, o *WebhookListOptions) iter.Seq2[*WebhookEndpoint, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one endpoint (without its secret).
func (s *WebhooksService) Get(ctx context.Context, ref string) (*WebhookEndpoint, *Response, error) {
	return getOne[WebhookEndpoint](ctx, s.c, ref, s.c.c.Webhooks.Get)
}

// Create creates an endpoint; the answer holds its secret (made by the
// server when p.Secret is empty), shown this once.
func (s *WebhooksService) Create(ctx context.Context, p *WebhookCreateParams, opts ...CallOption) (*WebhookEndpoint, *Response, error) {
	return createOne[WebhookEndpoint](ctx, s.c, p, opts, s.c.c.Webhooks.Create)
}

// Update changes an endpoint; Event replaces the list. To disable it,
// use SetEnabled (a false Enabled is not sent).
func (s *WebhooksService) Update(ctx context.Context, ref string, p *WebhookUpdateParams, opts ...CallOption) (*WebhookEndpoint, *Response, error) {
	return updateOne[WebhookEndpoint](ctx, s.c, ref, p, opts, s.c.c.Webhooks.UpdateWait)
}

// SetEnabled enables or disables an endpoint: a disabled one gets no
// events (test deliveries still go).
func (s *WebhooksService) SetEnabled(ctx context.Context, ref string, enabled bool, opts ...CallOption) (*WebhookEndpoint, *Response, error) {
	return s.Update(ctx, ref, &WebhookUpdateParams{Extra: map[string]any{"enabled": enabled}}, opts...)
}

// Delete deletes an endpoint and its delivery history.
func (s *WebhooksService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Webhooks.Delete)
}

// Test queues a webhook.test delivery to the endpoint and returns it,
// pending: it is posted after the answer.
func (s *WebhooksService) Test(ctx context.Context, ref string, opts ...CallOption) (*WebhookDelivery, *Response, error) {
	return actOn[WebhookDelivery](ctx, s.c, ref, opts, s.c.c.Webhooks.Test)
}

// Deliveries returns one page of the endpoint's deliveries, newest first;
// o.Status filters by status.
func (s *WebhooksService) Deliveries(ctx context.Context, ref string, o *ListOptions) ([]*WebhookDelivery, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	page := func(ctx context.Context, eng client.ListOptions) ([]client.WebhookDelivery, *client.ListMeta, error) {
		return s.c.c.Webhooks.Deliveries(ctx, ref, eng)
	}
	return listPage[WebhookDelivery](ctx, s.c, lo, page, lo.engine())
}

// EventTypes returns the events an endpoint may subscribe to.
func (s *WebhooksService) EventTypes(ctx context.Context) ([]string, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	types, meta, err := s.c.c.Webhooks.EventTypes(ctx)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	return types, newResponse(meta), nil
}

// AuditLogsService is the account's audit log: /api/audit_logs, read only.
type AuditLogsService struct{ c *Client }

// List returns one page of entries, newest first unless o.Sort says
// otherwise ("created_at_asc").
func (s *AuditLogsService) List(ctx context.Context, o *AuditLogListOptions) ([]*AuditLog, *Response, error) {
	var lo AuditLogListOptions
	if o != nil {
		lo = *o
	}
	eng := lo.engine()
	eng.Filters = map[string]string{"resource_type": lo.ResourceType, "channel": lo.Channel, "action_prefix": lo.ActionPrefix}
	return listPage[AuditLog](ctx, s.c, lo.ListOptions, s.c.c.AuditLogs.List, eng)
}

// All iterates lazily over every entry o selects.
func (s *AuditLogsService) All(ctx context.Context, o *AuditLogListOptions) iter.Seq2[*AuditLog, error] {
	return allOf(ctx, o, s.List)
}
