package localapi

// Playground and marquee routes beyond the core ones (compose, env
// metadata, debug, autoconnect tokens).
func (s *Server) extraRoutes(rt *router) {}
