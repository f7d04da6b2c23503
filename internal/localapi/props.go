package localapi

import "time"

// propState is the players' props, linked git repositories (docs/api.md, Props).
type propState struct{}

func (s *Server) propRoutes(rt *router) {}

func (st *state) seedProps(player int64, now time.Time) {}
