package client

import "time"

// APIKey is one of a player's API keys (docs/api.md, "API keys"). Token is
// set only in the answer that created the key; MaskedToken always.
type APIKey struct {
	ID                   int64      `json:"id"`
	Label                string     `json:"label"`
	Scopes               []string   `json:"scopes"`
	ExpiresAt            *time.Time `json:"expires_at,omitempty"`
	ClientID             string     `json:"client_id,omitempty"`
	CreatedAt            *time.Time `json:"created_at,omitempty"`
	RateLimitRPHOverride *int64     `json:"rate_limit_rph_override,omitempty"`
	MaskedToken          string     `json:"masked_token"`
	AgentAccessible      bool       `json:"agent_accessible"`
	Source               string     `json:"source,omitempty"`
	Token                string     `json:"token,omitempty"`
}

// APIKeysService is /api/api_keys: list, create (the answer holds the
// token, once) and delete. A ref is a numeric id; there is no get or
// update on the platform.
type APIKeysService struct{ *Collection[APIKey] }
