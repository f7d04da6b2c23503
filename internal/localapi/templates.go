package localapi

import "time"

// templateState is the import templates, their versions and categories
// (docs/api.md, Templates).
type templateState struct{}

func (s *Server) templateRoutes(rt *router) {}

func (st *state) seedTemplates(player int64, now time.Time) {}
