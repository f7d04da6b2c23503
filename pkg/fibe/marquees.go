package fibe

import (
	"context"
	"iter"
)

// MarqueesService is the marquees, the hosts playgrounds run on:
// /api/marquees. A ref is a numeric id or a name.
type MarqueesService struct{ c *Client }

// List returns one page of marquees; Response.Page says which.
func (s *MarqueesService) List(ctx context.Context, o *ListOptions) ([]*Marquee, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return listPage[Marquee](ctx, s.c, lo, s.c.c.Marquees.List, lo.engine())
}

// All iterates lazily over every marquee o selects, as
// PlaygroundsService.All does.
func (s *MarqueesService) All(ctx context.Context, o *ListOptions) iter.Seq2[*Marquee, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one marquee.
func (s *MarqueesService) Get(ctx context.Context, ref string) (*Marquee, *Response, error) {
	return getOne[Marquee](ctx, s.c, ref, s.c.c.Marquees.Get)
}

// Create creates a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Create(ctx context.Context, p *MarqueeCreateParams, opts ...CallOption) (*Marquee, *Response, error) {
	return createOne[Marquee](ctx, s.c, p, opts, s.c.c.Marquees.Create)
}

// Update changes a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Update(ctx context.Context, ref string, p *MarqueeUpdateParams, opts ...CallOption) (*Marquee, *Response, error) {
	return updateOne[Marquee](ctx, s.c, ref, p, opts, s.c.c.Marquees.UpdateWait)
}

// Delete deletes a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Marquees.Delete)
}

// TestConnection checks that the platform reaches the marquee over SSH
// (an operation, waited on unless NoWait).
func (s *MarqueesService) TestConnection(ctx context.Context, ref string, opts ...CallOption) (*ConnectionTest, *Response, error) {
	return actOn[ConnectionTest](ctx, s.c, ref, opts, s.c.c.Marquees.TestConnection)
}

// GenerateSSHKey makes the marquee a new SSH key pair and returns its
// public key (an operation, waited on unless NoWait).
func (s *MarqueesService) GenerateSSHKey(ctx context.Context, ref string, opts ...CallOption) (*SSHKey, *Response, error) {
	return actOn[SSHKey](ctx, s.c, ref, opts, s.c.c.Marquees.SSHKey)
}
