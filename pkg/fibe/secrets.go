package fibe

import (
	"context"
	"iter"
	"time"
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
	var so SecretListOptions
	if o != nil {
		so = *o
	}
	return all(ctx, so.ListOptions, func(ctx context.Context, page ListOptions) ([]*Secret, *Response, error) {
		return s.List(ctx, &SecretListOptions{ListOptions: page, Key: so.Key})
	})
}

// Get returns one secret without its value.
func (s *SecretsService) Get(ctx context.Context, ref string) (*Secret, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	sec, meta, err := s.c.c.Secrets.Get(ctx, ref)
	if sec != nil {
		sec.Value = nil
	}
	return result[Secret](sec, meta, err)
}

// Reveal returns one secret with its value.
func (s *SecretsService) Reveal(ctx context.Context, ref string) (*Secret, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	sec, meta, err := s.c.c.Secrets.Reveal(ctx, ref)
	return result[Secret](sec, meta, err)
}

// Create creates a secret. Key and Value are required.
func (s *SecretsService) Create(ctx context.Context, p *SecretCreateParams, opts ...CallOption) (*Secret, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	sec, meta, err := s.c.c.Secrets.Create(ctx, body, mo, o.wait())
	return result[Secret](sec, meta, err)
}

// Update changes a secret's value or description (its key never changes).
func (s *SecretsService) Update(ctx context.Context, ref string, p *SecretUpdateParams, opts ...CallOption) (*Secret, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	sec, meta, err := s.c.c.Secrets.UpdateWait(ctx, ref, body, mo, o.wait())
	return result[Secret](sec, meta, err)
}

// Delete deletes a secret.
func (s *SecretsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	meta, err := s.c.c.Secrets.Delete(ctx, ref, mo, o.wait())
	if err != nil {
		return responseOf(meta), fromClient(err)
	}
	return newResponse(meta), nil
}
