package localapi

import "time"

// agentState is the players' agents (docs/api.md, Agents).
type agentState struct{}

func (s *Server) agentRoutes(rt *router) {}

func (st *state) seedAgents(player int64, now time.Time) {}
