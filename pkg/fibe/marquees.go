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
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return all(ctx, lo, func(ctx context.Context, page ListOptions) ([]*Marquee, *Response, error) {
		return s.List(ctx, &page)
	})
}

// Get returns one marquee.
func (s *MarqueesService) Get(ctx context.Context, ref string) (*Marquee, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	m, meta, err := s.c.c.Marquees.Get(ctx, ref)
	return result[Marquee](m, meta, err)
}

// Create creates a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Create(ctx context.Context, p *MarqueeCreateParams, opts ...CallOption) (*Marquee, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	m, meta, err := s.c.c.Marquees.Create(ctx, body, mo, o.wait())
	return result[Marquee](m, meta, err)
}

// Update changes a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Update(ctx context.Context, ref string, p *MarqueeUpdateParams, opts ...CallOption) (*Marquee, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	m, meta, err := s.c.c.Marquees.UpdateWait(ctx, ref, body, mo, o.wait())
	return result[Marquee](m, meta, err)
}

// Delete deletes a marquee; a 202 is waited on unless NoWait.
func (s *MarqueesService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	meta, err := s.c.c.Marquees.Delete(ctx, ref, mo, o.wait())
	if err != nil {
		return responseOf(meta), fromClient(err)
	}
	return newResponse(meta), nil
}

// TestConnection checks that the platform reaches the marquee over SSH
// (an operation, waited on unless NoWait).
func (s *MarqueesService) TestConnection(ctx context.Context, ref string, opts ...CallOption) (*ConnectionTest, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	ct, meta, err := s.c.c.Marquees.TestConnection(ctx, ref, mo, o.wait())
	return result[ConnectionTest](ct, meta, err)
}

// GenerateSSHKey makes the marquee a new SSH key pair and returns its
// public key (an operation, waited on unless NoWait).
func (s *MarqueesService) GenerateSSHKey(ctx context.Context, ref string, opts ...CallOption) (*SSHKey, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	k, meta, err := s.c.c.Marquees.SSHKey(ctx, ref, mo, o.wait())
	return result[SSHKey](k, meta, err)
}
