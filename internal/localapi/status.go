package localapi

// GET /api/status and the unauthenticated health routes.
func (s *Server) statusRoutes(rt *router) {}
