package localapi

import (
	_ "embed"
	"net/http"
	"strconv"
)

// composeSchema is the JSON Schema (draft 2020-12) of a playspec's compose,
// served at the site root as GET /schema.json, without a key, as the
// platform serves it: the SDKs check a compose against it before they ask
// POST /api/compose_validations (docs/emulator.md, Playspecs).
//
//go:embed compose_schema.json
var composeSchema []byte

// serveSchema answers GET and HEAD /schema.json; it reports whether the
// request was for it.
func (s *Server) serveSchema(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != "/schema.json" {
		return false
	}
	w.Header().Set("X-Request-Id", newID("req_"))
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeReply(w, newAPIError(http.StatusMethodNotAllowed, codeBadRequest, "method "+r.Method+" not allowed here", nil).envelope())
		return true
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Content-Length", strconv.Itoa(len(composeSchema)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(composeSchema)
	}
	return true
}
