package fibe

import (
	"context"
	"iter"
	"strconv"
	"time"
)

// APIKey is one of the player's API keys. Token is set only in Create's
// answer: it is shown once. MaskedToken is always set.
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

// APIKeyListOptions select a page of API keys: ListOptions (Search
// matches labels; Sort keys "created_at", "label") and Label, the text the
// label contains.
type APIKeyListOptions struct {
	ListOptions
	Label string
}

// APIKeysService is the player's API keys: /api/api_keys. It needs a key
// with the scope keys:manage. There is no get or update.
type APIKeysService struct{ c *Client }

// List returns one page of keys, never their tokens.
func (s *APIKeysService) List(ctx context.Context, o *APIKeyListOptions) ([]*APIKey, *Response, error) {
	var ko APIKeyListOptions
	if o != nil {
		ko = *o
	}
	lo := ko.engine()
	if ko.Label != "" {
		lo.Filters = map[string]string{"label": ko.Label}
	}
	return listPage[APIKey](ctx, s.c, ko.ListOptions, s.c.c.APIKeys.List, lo)
}

// All iterates lazily over every key o selects.
func (s *APIKeysService) All(ctx context.Context, o *APIKeyListOptions) iter.Seq2[*APIKey, error] {
	return allOf(ctx, o, s.List)
}

// Create creates a key holding p.Scopes (at least one) and returns it
// with its Token, the only time the token is shown.
func (s *APIKeysService) Create(ctx context.Context, p *APIKeyCreateParams, opts ...CallOption) (*APIKey, *Response, error) {
	return createOne[APIKey](ctx, s.c, p, opts, s.c.c.APIKeys.Create)
}

// Delete deletes the key id: its token is refused (401) from its next
// request on.
func (s *APIKeysService) Delete(ctx context.Context, id int64, opts ...CallOption) (*Response, error) {
	if id <= 0 {
		if err := s.c.begin(ctx); err != nil {
			return nil, err
		}
		return nil, invalidArgument("id", "must be a positive key id")
	}
	return deleteOne(ctx, s.c, strconv.FormatInt(id, 10), opts, s.c.c.APIKeys.Delete)
}
