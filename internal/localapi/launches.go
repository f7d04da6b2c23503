package localapi

// POST /api/launches and template launches.
func (s *Server) launchRoutes(rt *router) {}
