package localapi

// GET /api/audit_logs; entries are recorded by emit (events.go).
func (s *Server) auditLogRoutes(rt *router) {}
