package localapi

// The routes of /api/api_keys; the keys themselves are in players.go.
func (s *Server) apiKeyRoutes(rt *router) {}
