package localapi

import (
	"net/url"
	"strings"
)

// handlerFunc answers one request; it runs with the state locked.
// It returns the answer, or the error (an apiError) that Server.errorReply
// turns into one.
type handlerFunc func(rc *reqCtx) (*reply, error)

type route struct {
	method  string
	pattern string // "/api/playgrounds/{id}"; also the label in stats
	scope   string // what the key must allow ("" for any valid key)
	segs    []string
	h       handlerFunc
}

func (r *route) label() string { return r.method + " " + r.pattern }

// api reports whether the route belongs to the emulated API (chaos,
// idempotency) rather than to the emulator's own /_local controls.
func (r *route) api() bool { return strings.HasPrefix(r.pattern, "/api/") }

func (r *route) mutation() bool { return isMutation(r.method) }

func isMutation(method string) bool {
	switch method {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

type router struct{ routes []*route }

// add serves method and pattern with h, for keys that allow scope.
func (rt *router) add(method, pattern, scope string, h handlerFunc) {
	rt.routes = append(rt.routes, &route{method: method, pattern: pattern, scope: scope, segs: splitPath(pattern), h: h})
}

// match finds the route for method and escaped path. It returns the path
// parameters, or pathKnown when only the method is wrong (405).
func (rt *router) match(method, escapedPath string) (r *route, params []string, pathKnown bool) {
	segs, ok := unescapeSegments(escapedPath)
	if !ok {
		return nil, nil, false
	}
	for _, cand := range rt.routes {
		p, ok := matchSegs(cand.segs, segs)
		if !ok {
			continue
		}
		if cand.method == method {
			return cand, p, true
		}
		pathKnown = true
	}
	return nil, nil, pathKnown
}

func matchSegs(pattern, segs []string) ([]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params []string
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return nil, false
			}
			params = append(params, segs[i])
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// unescapeSegments splits before unescaping, so a name holding an escaped
// slash stays one segment.
func unescapeSegments(escaped string) ([]string, bool) {
	raw := splitPath(escaped)
	out := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return nil, false
		}
		out[i] = u
	}
	return out, true
}

func (s *Server) routes() *router {
	rt := &router{}
	rt.add("GET", "/api/me", "", s.getMe)
	rt.add("GET", "/api/cable_url", "", s.getCableURL)

	rt.add("GET", "/api/playgrounds", "playgrounds:read", s.listPlaygrounds)
	rt.add("POST", "/api/playgrounds", "playgrounds:write", s.createPlayground)
	rt.add("GET", "/api/playgrounds/{id}", "playgrounds:read", s.getPlayground)
	rt.add("PATCH", "/api/playgrounds/{id}", "playgrounds:write", s.updatePlayground)
	rt.add("PUT", "/api/playgrounds/{id}", "playgrounds:write", s.updatePlayground)
	rt.add("DELETE", "/api/playgrounds/{id}", "playgrounds:delete", s.deletePlayground)
	rt.add("POST", "/api/playgrounds/{id}/operations", "playgrounds:write", s.playgroundAction)
	rt.add("GET", "/api/playgrounds/{id}/status", "playgrounds:read", s.playgroundStatus)
	rt.add("POST", "/api/playgrounds/{id}/status", "playgrounds:read", s.refreshPlaygroundStatus)
	rt.add("POST", "/api/playgrounds/{id}/expiration", "playgrounds:write", s.extendPlayground)
	rt.add("POST", "/api/playgrounds/{id}/logs", "playgrounds:read", s.playgroundLogs)

	rt.add("GET", "/api/marquees", "marquees:read", s.listMarquees)
	rt.add("POST", "/api/marquees", "marquees:write", s.createMarquee)
	rt.add("GET", "/api/marquees/{id}", "marquees:read", s.getMarquee)
	rt.add("PATCH", "/api/marquees/{id}", "marquees:write", s.updateMarquee)
	rt.add("PUT", "/api/marquees/{id}", "marquees:write", s.updateMarquee)
	rt.add("DELETE", "/api/marquees/{id}", "marquees:delete", s.deleteMarquee)
	rt.add("POST", "/api/marquees/{id}/connection_tests", "marquees:write", s.testMarqueeConnection)
	rt.add("POST", "/api/marquees/{id}/ssh_keys", "marquees:write", s.newMarqueeSSHKey)

	// Each family of the platform's other resources adds its own routes.
	s.playspecRoutes(rt)
	s.secretRoutes(rt)
	s.apiKeyRoutes(rt)
	s.statusRoutes(rt)
	s.propRoutes(rt)
	s.webhookRoutes(rt)
	s.auditLogRoutes(rt)
	s.templateRoutes(rt)
	s.launchRoutes(rt)
	s.agentRoutes(rt)
	s.extraRoutes(rt)

	rt.add("GET", "/api/async_requests/{id}", "", s.getAsyncRequest)
	rt.add("GET", altStatusPattern, "", s.getAsyncRequest)

	rt.add("GET", "/_local/stats", "", s.getStats)
	rt.add("POST", "/_local/chaos", "", s.postChaos)
	return rt
}
