package fibe

import (
	"context"
	"iter"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// Secret is a value kept for the player, named by its key. Value is set
// only by Reveal: lists and Get never carry it.
type Secret struct {
	ID          int64      `json:"id"`
	Key         string     `json:"key"`
	Value       *string    `json:"value,omitempty"`
	Description string     `json:"description,omitempty"`
	CreatedAt   *time.Time `json:"created_at,omitempty"`
	UpdatedAt   *time.Time `json:"updated_at,omitempty"`
}

// SecretListOptions select a page of secrets: ListOptions (Search matches
// keys and descriptions; Sort keys "created_at", "key") and Key, the text
// the key contains.
type SecretListOptions struct {
	ListOptions
	Key string
}

// SecretsService is the player's secrets: /api/secrets. A ref is a
// numeric id or the secret's key. A value is checked before anything is
// sent (at most 65,536 characters); the WithDebug trace masks it.
type SecretsService struct{ c *Client }

// List returns one page of secrets, without their values.
func (s *SecretsService) List(ctx context.Context, o *SecretListOptions) ([]*Secret, *Response, error) {
	var so SecretListOptions
	if o != nil {
		so = *o
	}
	lo := so.engine()
	if so.Key != "" {
		lo.Filters = map[string]string{"key": so.Key}
	}
	return listPage[Secret](ctx, s.c, so.ListOptions, s.c.c.Secrets.List, lo)
}

// All iterates lazily over every secret o selects, as
// PlaygroundsService.All does.
func (s *SecretsService) All(ctx context.Context, o *SecretListOptions) iter.Seq2[*Secret, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one secret without its value.
func (s *SecretsService) Get(ctx context.Context, ref string) (*Secret, *Response, error) {
	return getOne[Secret](ctx, s.c, ref, func(ctx context.Context, ref string) (*client.Secret, *client.Response, error) {
		sec, meta, err := s.c.c.Secrets.Get(ctx, ref)
		if sec != nil {
			sec.Value = nil
		}
		return sec, meta, err
	})
}

// Reveal returns one secret with its value.
func (s *SecretsService) Reveal(ctx context.Context, ref string) (*Secret, *Response, error) {
	return getOne[Secret](ctx, s.c, ref, s.c.c.Secrets.Reveal)
}

// Create creates a secret. Key and Value are required.
func (s *SecretsService) Create(ctx context.Context, p *SecretCreateParams, opts ...CallOption) (*Secret, *Response, error) {
	return createOne[Secret](ctx, s.c, p, opts, s.c.c.Secrets.Create)
}

// Update changes a secret's value or description (its key never changes).
func (s *SecretsService) Update(ctx context.Context, ref string, p *SecretUpdateParams, opts ...CallOption) (*Secret, *Response, error) {
	return updateOne[Secret](ctx, s.c, ref, p, opts, s.c.c.Secrets.UpdateWait)
}

// Delete deletes a secret.
func (s *SecretsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Secrets.Delete)
}
