package cable

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// authorized accepts an upgrade that carries a valid stream token
// (?token=), a valid API key in the fibe-api-key. subprotocol, or a valid
// API key as Authorization: Bearer.
func (s *Server) authorized(r *http.Request) bool {
	if tok := r.URL.Query().Get("token"); tok != "" && s.cfg.ValidToken != nil && s.cfg.ValidToken(tok) {
		return true
	}
	if s.cfg.ValidKey == nil {
		return false
	}
	if key, ok := keyFromSubprotocols(r.Header); ok && s.cfg.ValidKey(key) {
		return true
	}
	if key, ok := bearer(r.Header.Get("Authorization")); ok && s.cfg.ValidKey(key) {
		return true
	}
	return false
}

// keyFromSubprotocols finds fibe-api-key.<base64url> among the offered
// subprotocols. Padding is tolerated although a subprotocol token cannot
// properly carry it.
func keyFromSubprotocols(h http.Header) (string, bool) {
	for _, v := range h.Values("Sec-WebSocket-Protocol") {
		for _, p := range strings.Split(v, ",") {
			p = strings.TrimSpace(p)
			enc, ok := strings.CutPrefix(p, KeyProtocolPrefix)
			if !ok {
				continue
			}
			raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(enc, "="))
			if err != nil {
				continue
			}
			return string(raw), true
		}
	}
	return "", false
}

func bearer(h string) (string, bool) {
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

func writeUnauthorized(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte(`{"error":{"code":"UNAUTHORIZED","message":"a valid API key or stream token is required"}}` + "\n"))
}
