package localapi

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"time"
)

// cableTokenLifetime bounds a stream token from GET /api/cable_url.
const cableTokenLifetime = 10 * time.Minute

// getMe is the emulator's one user, as the platform shows a player.
func (s *Server) getMe(rc *reqCtx) (*reply, error) {
	p := rc.st.playerByID(rc.player)
	return jsonReply(http.StatusOK, map[string]any{
		"id": p.ID, "username": p.Username, "email": p.Email, "avatar_url": nil,
		"api_key_scopes": rc.key.Scopes,
	}), nil
}

// getCableURL mints a short-lived stream token. Only its hash is stored.
func (s *Server) getCableURL(rc *reqCtx) (*reply, error) {
	var b [24]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	exp := rc.now.Add(cableTokenLifetime)
	rc.st.CableTokens[tokenHash(token)] = exp
	scheme := "ws"
	if rc.c.scheme == "https" {
		scheme = "wss"
	}
	u := url.URL{Scheme: scheme, Host: rc.c.host, Path: "/cable", RawQuery: "token=" + token}
	return jsonReply(http.StatusOK, map[string]any{"url": u.String(), "expires_at": exp}), nil
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
