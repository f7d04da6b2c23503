package client

import (
	"context"
	"net/url"
	"time"
)

// Secret is a value the platform keeps for a player (docs/api.md,
// "Secrets"). Value is set only when it was asked for (reveal): a list
// never carries it, nor does a get without reveal.
type Secret struct {
	ID          int64      `json:"id"`
	Key         string     `json:"key"`
	Value       *string    `json:"value,omitempty"`
	Description string     `json:"description,omitempty"`
	CreatedAt   *time.Time `json:"created_at,omitempty"`
	UpdatedAt   *time.Time `json:"updated_at,omitempty"`
}

// SecretsService is /api/secrets. A ref is a numeric id or the secret's
// key. The --debug trace masks a secret's value in every answer.
type SecretsService struct{ *Collection[Secret] }

// Reveal returns the secret ref with its value.
func (s *SecretsService) Reveal(ctx context.Context, ref string) (*Secret, *Response, error) {
	return s.GetQuery(ctx, ref, url.Values{"reveal": {"true"}})
}
