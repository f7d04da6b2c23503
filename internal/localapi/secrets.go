package localapi

// secretState is the players' secrets (docs/api.md, Secrets).
type secretState struct{}

func (s *Server) secretRoutes(rt *router) {}
