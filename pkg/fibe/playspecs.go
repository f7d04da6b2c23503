package fibe

import (
	"context"
	"iter"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// PlayspecsService is the playspecs, templates of playgrounds:
// /api/playspecs. A ref is a numeric id or a name.
type PlayspecsService struct{ c *Client }

// List returns one page of playspecs; Search matches the name and the
// description, Name is a substring of the name.
func (s *PlayspecsService) List(ctx context.Context, o *ListOptions) ([]*Playspec, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return listPage[Playspec](ctx, s.c, lo, s.c.c.Playspecs.List, lo.engine())
}

// All iterates lazily over every playspec o selects, as
// PlaygroundsService.All does.
func (s *PlayspecsService) All(ctx context.Context, o *ListOptions) iter.Seq2[*Playspec, error] {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return all(ctx, lo, func(ctx context.Context, page ListOptions) ([]*Playspec, *Response, error) {
		return s.List(ctx, &page)
	})
}

// Get returns one playspec with its detail.
func (s *PlayspecsService) Get(ctx context.Context, ref string) (*Playspec, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	p, meta, err := s.c.c.Playspecs.Get(ctx, ref)
	return result[Playspec](p, meta, err)
}

// Create creates a playspec. A BaseComposeYAML that is not YAML is
// INVALID_ARGUMENT, and nothing is sent. Service definitions and the
// trigger, muti and schedule configs go in p.Extra under their API names
// ("services", "trigger_config", ...).
func (s *PlayspecsService) Create(ctx context.Context, p *PlayspecCreateParams, opts ...CallOption) (*Playspec, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	ps, meta, err := s.c.c.Playspecs.Create(ctx, body, mo, o.wait())
	return result[Playspec](ps, meta, err)
}

// Update changes a playspec; only the fields given are sent.
func (s *PlayspecsService) Update(ctx context.Context, ref string, p *PlayspecUpdateParams, opts ...CallOption) (*Playspec, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := paramsBody(p)
	if err != nil {
		return nil, nil, err
	}
	ps, meta, err := s.c.c.Playspecs.UpdateWait(ctx, ref, body, mo, o.wait())
	return result[Playspec](ps, meta, err)
}

// Delete deletes a playspec. One that playgrounds still use is refused
// (CONFLICT).
func (s *PlayspecsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	meta, err := s.c.c.Playspecs.Delete(ctx, ref, mo, o.wait())
	if err != nil {
		return responseOf(meta), fromClient(err)
	}
	return newResponse(meta), nil
}

// Services returns the services of a playspec, read from its compose and
// its service definitions.
func (s *PlayspecsService) Services(ctx context.Context, ref string) ([]*ServiceSpec, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	items, meta, err := s.c.c.Playspecs.Services(ctx, ref)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	out, cerr := convertAll[ServiceSpec](items)
	return out, newResponse(meta), cerr
}

// ComposeCheck is what ValidateCompose checks: the compose's YAML and,
// optionally, what it is for.
type ComposeCheck struct {
	YAML string
	// TargetType is what the compose is for, as the platform names it.
	TargetType string
	// JobMode checks it for job-mode playgrounds: a watched service is
	// needed.
	JobMode bool
}

// ValidateCompose asks the platform to check a compose. YAML that does
// not parse is INVALID_ARGUMENT, with the line and column, and nothing is
// sent; a compose that parses but is unusable is a ComposeValidation with
// Valid false and its errors.
func (s *PlayspecsService) ValidateCompose(ctx context.Context, in ComposeCheck) (*ComposeValidation, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	if err := resource.CheckYAML(in.YAML); err != nil {
		return nil, nil, invalidArgument("compose_yaml", err.Error())
	}
	v, meta, err := s.c.c.Playspecs.ValidateCompose(ctx, client.ComposeCheck{YAML: in.YAML, TargetType: in.TargetType, JobMode: in.JobMode})
	return result[ComposeValidation](v, meta, err)
}
