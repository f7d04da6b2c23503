package localapi

import "time"

// playspecState is the playspecs players author (docs/api.md, Playspecs).
type playspecState struct{}

func (s *Server) playspecRoutes(rt *router) {}

func (st *state) seedPlayspecs(player int64, now time.Time) {}
