package fibe

import "context"

// AccountStatus is what the player's account holds: counts, plan, quotas
// (a nil Limit is unlimited) and, for API-key requests, the rate limit.
type AccountStatus struct {
	Playgrounds struct {
		Total   int `json:"total"`
		Active  int `json:"active"`
		Stopped int `json:"stopped"`
	} `json:"playgrounds"`
	Agents struct {
		Total         int `json:"total"`
		Authenticated int `json:"authenticated"`
	} `json:"agents"`
	Props        int `json:"props"`
	Playspecs    int `json:"playspecs"`
	Marquees     int `json:"marquees"`
	Secrets      int `json:"secrets"`
	APIKeys      int `json:"api_keys"`
	Subscription struct {
		Plan            string `json:"plan"`
		PlaygroundLimit *int   `json:"playground_limit"`
	} `json:"subscription"`
	ResourceQuotas map[string]Quota `json:"resource_quotas,omitempty"`
	PerParentCaps  map[string]*int  `json:"per_parent_caps,omitempty"`
	RateLimits     *struct {
		API *RateLimitBucket `json:"api,omitempty"`
	} `json:"rate_limits,omitempty"`
}

// Quota is the use of one kind of resource against its limit (nil:
// unlimited); Status is "ok", "warning" or "exceeded".
type Quota struct {
	Used   int    `json:"used"`
	Limit  *int   `json:"limit"`
	Status string `json:"status"`
}

// RateLimitBucket is one rate limit as the account status reports it.
type RateLimitBucket struct {
	Limit        int `json:"limit"`
	Remaining    int `json:"remaining"`
	ResetSeconds int `json:"reset_seconds"`
}

// StatusService is the account's status: /api/status.
type StatusService struct{ c *Client }

// Get returns the account's status.
func (s *StatusService) Get(ctx context.Context) (*AccountStatus, *Response, error) {
	return fetchOne[AccountStatus](ctx, s.c, s.c.c.Status)
}
