package client

import (
	"context"
	"net/http"
)

// MarqueesService is /api/marquees. A ref is a numeric id or a name.
type MarqueesService struct{ c *Client }

const marqueesPath = "/api/marquees"

func (s *MarqueesService) List(ctx context.Context, o ListOptions) ([]Marquee, *ListMeta, error) {
	var env listEnvelope[Marquee]
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: filteredQuery(marqueesPath, o)}, &env); err != nil {
		return nil, nil, err
	}
	s.c.learn(nil, env.Data)
	return env.Data, &env.Meta, nil
}

func (s *MarqueesService) ListAll(ctx context.Context, o ListOptions) ([]Marquee, error) {
	return listAll(ctx, o, s.List)
}

func (s *MarqueesService) Get(ctx context.Context, ref string) (*Marquee, *Response, error) {
	var m Marquee
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: refPath(marqueesPath, ref), resource: s.c.marqueeRef(ref)}, &m)
	if err != nil {
		return nil, meta, err
	}
	s.c.learn(nil, []Marquee{m})
	return &m, meta, nil
}

// Create creates a marquee; body is the inner "marquee" object.
func (s *MarqueesService) Create(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*Marquee, *Response, error) {
	resource := s.c.HostResource()
	if name, ok := body["name"].(string); ok && name != "" {
		resource = marqueeResource(name)
	}
	var m Marquee
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: marqueesPath,
		body: map[string]any{"marquee": body}, resource: resource, mo: mo, wo: wo}, &m)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	if now, err := afterReplayedCreate(ctx, meta, mo, "marquee", m.Name, m.ID, s.Get); err != nil {
		return nil, meta, err
	} else if now != nil {
		return now, meta, nil
	}
	s.c.learn(nil, []Marquee{m})
	return &m, meta, nil
}

func (s *MarqueesService) Update(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*Marquee, *Response, error) {
	return s.UpdateWait(ctx, ref, body, mo, WaitOptions{})
}

// UpdateWait is Update whose 202, if the server answers one, is waited on
// as wo says; with wo.NoWait the marquee is nil and Response.Accepted is set.
func (s *MarqueesService) UpdateWait(ctx context.Context, ref string, body map[string]any, mo MutationOptions, wo WaitOptions) (*Marquee, *Response, error) {
	var m Marquee
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPatch, path: refPath(marqueesPath, ref),
		body: map[string]any{"marquee": body}, resource: s.c.marqueeRef(ref), mo: mo, wo: wo}, &m)
	if err != nil {
		return nil, meta, err
	}
	if wo.NoWait && meta != nil && meta.Accepted != nil {
		return nil, meta, nil
	}
	s.c.learn(nil, []Marquee{m})
	return &m, meta, nil
}

func (s *MarqueesService) Delete(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*Response, error) {
	return s.c.mutate(ctx, mutation{method: http.MethodDelete, path: refPath(marqueesPath, ref),
		resource: s.c.marqueeRef(ref), mo: mo, wo: wo}, nil)
}

func (s *MarqueesService) TestConnection(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*ConnectionTest, *Response, error) {
	var out ConnectionTest
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(marqueesPath, ref) + "/connection_tests",
		resource: s.c.marqueeRef(ref), mo: mo, wo: wo}, &out)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return &out, meta, nil
}

func (s *MarqueesService) SSHKey(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*SSHKey, *Response, error) {
	var out SSHKey
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(marqueesPath, ref) + "/ssh_keys",
		resource: s.c.marqueeRef(ref), mo: mo, wo: wo}, &out)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return &out, meta, nil
}
