package client

import "time"

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
