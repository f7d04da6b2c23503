package client

import (
	"context"
	"net/http"
)

// PlayspecsService is /api/playspecs, read only. A ref is an id or a name.
type PlayspecsService struct{ c *Client }

const playspecsPath = "/api/playspecs"

// List returns one page of playspecs (only Page and PerPage apply).
func (s *PlayspecsService) List(ctx context.Context, o ListOptions) ([]Playspec, *ListMeta, error) {
	var env listEnvelope[Playspec]
	o = ListOptions{Page: o.Page, PerPage: o.PerPage}
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: listQuery(playspecsPath, o)}, &env); err != nil {
		return nil, nil, err
	}
	return env.Data, &env.Meta, nil
}

func (s *PlayspecsService) ListAll(ctx context.Context, o ListOptions) ([]Playspec, error) {
	return listAll(ctx, o, s.List)
}

func (s *PlayspecsService) Get(ctx context.Context, ref string) (*Playspec, *Response, error) {
	var p Playspec
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: refPath(playspecsPath, ref)}, &p)
	if err != nil {
		return nil, meta, err
	}
	return &p, meta, nil
}
