package localapi

import (
	"net/http"

	"github.com/fibegg/fibe/internal/localapi/cable"
)

// Stats are the emulator's counters, for tests and benchmarks.
type Stats struct {
	Requests  map[string]map[string]int `json:"requests"`  // "GET /api/playgrounds/{id}" → "200" → n
	Mutations int                       `json:"mutations"` // mutations actually executed
	Replays   int                       `json:"replays"`   // idempotent replays served
	Creates   map[string]int            `json:"creates"`   // playground/marquee name → times created
	Faults    map[string]int            `json:"faults"`    // fault kind → times injected
	// Cable counts what the /cable endpoint did: connections accepted and
	// open now, subscriptions, expiries, drops (filled in by GET
	// /_local/stats).
	Cable *cable.Stats `json:"cable,omitempty"`
}

func (s *Stats) init() {
	if s.Requests == nil {
		s.Requests = map[string]map[string]int{}
	}
	if s.Creates == nil {
		s.Creates = map[string]int{}
	}
	if s.Faults == nil {
		s.Faults = map[string]int{}
	}
}

// countRequest records one answer; status is the HTTP status or "reset".
func (s *Stats) countRequest(route, status string) {
	m := s.Requests[route]
	if m == nil {
		m = map[string]int{}
		s.Requests[route] = m
	}
	m[status]++
}

func (s Stats) clone() Stats {
	out := Stats{Mutations: s.Mutations, Replays: s.Replays}
	out.init()
	for route, m := range s.Requests {
		c := make(map[string]int, len(m))
		for k, v := range m {
			c[k] = v
		}
		out.Requests[route] = c
	}
	for k, v := range s.Creates {
		out.Creates[k] = v
	}
	for k, v := range s.Faults {
		out.Faults[k] = v
	}
	return out
}

// getStats serves GET /_local/stats. The request itself is counted after
// the snapshot is taken.
func (s *Server) getStats(rc *reqCtx) (*reply, error) {
	st := rc.st.Stats.clone()
	if s.cable != nil {
		cs := s.cable.Stats()
		st.Cable = &cs
	}
	return jsonReply(http.StatusOK, st), nil
}

// postChaos serves POST /_local/chaos {"spec": "..."}.
func (s *Server) postChaos(rc *reqCtx) (*reply, error) {
	spec, ok := rc.body["spec"].(string)
	if !ok {
		return nil, invalid("spec", "must be a string (a chaos spec or profile name; \"\" turns faults off)")
	}
	plan, err := parseChaos(spec)
	if err != nil {
		return nil, invalid("spec", err.Error())
	}
	plan.since = rc.now
	s.setPlan(plan)
	rc.st.Chaos = &chaosSetting{Spec: plan.source, Since: rc.now}
	return jsonReply(http.StatusOK, map[string]any{"spec": plan.source, "since": rc.now}), nil
}
