package fibe

import (
	"context"
	"iter"

	"github.com/fibegg/fibe/internal/client"
)

// PlayspecsService is the playspecs, templates of playgrounds:
// /api/playspecs, read only. A ref is a numeric id or a name.
type PlayspecsService struct{ c *Client }

// List returns one page of playspecs; only Page and PerPage apply.
func (s *PlayspecsService) List(ctx context.Context, o *ListOptions) ([]*Playspec, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return listPage[Playspec](ctx, s.c, lo, s.c.c.Playspecs.List, client.ListOptions{Page: lo.Page, PerPage: lo.PerPage})
}

// All iterates lazily over every playspec, as PlaygroundsService.All does.
func (s *PlayspecsService) All(ctx context.Context, o *ListOptions) iter.Seq2[*Playspec, error] {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return all(ctx, lo, func(ctx context.Context, page ListOptions) ([]*Playspec, *Response, error) {
		return s.List(ctx, &page)
	})
}

// Get returns one playspec.
func (s *PlayspecsService) Get(ctx context.Context, ref string) (*Playspec, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	p, meta, err := s.c.c.Playspecs.Get(ctx, ref)
	return result[Playspec](p, meta, err)
}
