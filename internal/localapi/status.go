package localapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// GET /api/status (docs/api.md, "Account status"): what exists for the
// player, counted when asked, any valid key. GET /up and GET /up.json
// answer without a key (serveHealth).

// playgroundLimit is the plan's playground quota.
const playgroundLimit = 1000

func (s *Server) statusRoutes(rt *router) {
	rt.add("GET", "/api/status", "", s.getStatus)
}

// quotaView is the use of a resource against its limit (nil: unlimited).
type quotaView struct {
	Used   int    `json:"used"`
	Limit  *int   `json:"limit"`
	Status string `json:"status"`
}

func (s *Server) getStatus(rc *reqCtx) (*reply, error) {
	p := rc.player
	var total, active, stopped int
	for _, pg := range ownedBy(rc.st.Playgrounds, p) {
		total++
		switch pg.Status {
		case "running":
			active++
		case "stopped":
			stopped++
		}
	}
	keys := 0
	for _, k := range rc.st.APIKeys {
		if k.Player == p {
			keys++
		}
	}
	limit := playgroundLimit
	body := map[string]any{
		"playgrounds":     map[string]int{"total": total, "active": active, "stopped": stopped},
		"agents":          map[string]int{"total": len(ownedBy(rc.st.Agents, p)), "authenticated": 0}, // no agent signs in here
		"props":           len(ownedBy(rc.st.Props, p)),
		"playspecs":       len(ownedBy(rc.st.Playspecs, p)),
		"marquees":        len(ownedBy(rc.st.Marquees, p)),
		"secrets":         len(ownedBy(rc.st.Secrets, p)),
		"api_keys":        keys,
		"subscription":    map[string]any{"plan": "local", "playground_limit": limit},
		"resource_quotas": map[string]quotaView{"playgrounds": {Used: total, Limit: &limit, Status: quotaStatus(total, limit)}},
		"per_parent_caps": map[string]any{"mounted_files_per_agent": nil, "artefacts_per_agent": nil},
	}
	if w := rc.st.Rate[bucketOf(bearerKey(rc.c.header))]; w != nil {
		reset := int(max(w.Start.Add(s.cfg.RateWindow).Sub(rc.now), 0) / time.Second)
		body["rate_limits"] = map[string]any{"api": map[string]int{
			"limit": s.cfg.RateLimit, "remaining": max(s.cfg.RateLimit-w.Count, 0), "reset_seconds": reset}}
	}
	return jsonReply(http.StatusOK, body), nil
}

// quotaStatus is "ok", "warning" from 80% of the limit, "exceeded" at it.
func quotaStatus(used, limit int) string {
	switch {
	case used >= limit:
		return "exceeded"
	case used*10 >= limit*8:
		return "warning"
	}
	return "ok"
}

// serveHealth answers GET (and HEAD) /up and /up.json without a key, as
// the platform's health check does; it reports whether the request was for
// them.
func (s *Server) serveHealth(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != "/up" && r.URL.Path != "/up.json" {
		return false
	}
	w.Header().Set("X-Request-Id", newID("req_"))
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeReply(w, newAPIError(http.StatusMethodNotAllowed, codeBadRequest, "method "+r.Method+" not allowed here", nil).envelope())
		return true
	}
	body := []byte("ok\n")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Path == "/up.json" {
		body, _ = json.Marshal(map[string]string{
			"status": "ok", "domain": r.Host, "time_utc": s.now().UTC().Format(time.RFC3339),
			"build_time": "", "git_commit_sha": "",
		})
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
	}
	return true
}
