package localapi

// webhookState is the players' webhook endpoints and their deliveries
// (docs/api.md, Webhooks).
type webhookState struct{}

func (s *Server) webhookRoutes(rt *router) {}

// queueWebhooks hands an event to the endpoints of rc's player that
// subscribe to it.
func (s *Server) queueWebhooks(rc *reqCtx, event string, data any) {}
