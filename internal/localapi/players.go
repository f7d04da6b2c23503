package localapi

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Players and their API keys (docs/api.md, "Players, keys and scopes").
// Every resource belongs to one player; another player's resource answers
// 404 like an unknown one. A request is made by a key, and the key's
// scopes decide which routes it may call.

// player is one account of the emulated platform.
type player struct {
	ID       int64  `json:"id"`
	Username string `json:"username"`
	Email    string `json:"email"`
}

// apiKey is a key of a player. Only the token's hash is kept; the token is
// shown once, in the answer that minted it.
type apiKey struct {
	ID              int64            `json:"id"`
	Player          int64            `json:"player"`
	Label           string           `json:"label"`
	Scopes          []string         `json:"scopes"`
	GranularScopes  map[string][]any `json:"granular_scopes,omitempty"`
	TokenHash       string           `json:"token_hash"`
	MaskedToken     string           `json:"masked_token"`
	CreatedAt       time.Time        `json:"created_at"`
	ExpiresAt       *time.Time       `json:"expires_at,omitempty"`
	AgentAccessible bool             `json:"agent_accessible"`
	Source          string           `json:"source"`
	// Primary keys are the ones `fibe local serve` prints (seeded, derived
	// from the configured key); Admin marks the key with scope "*".
	Primary bool `json:"primary,omitempty"`
	Admin   bool `json:"admin,omitempty"`
}

// scopeCatalogue is every scope a key may hold, "*" aside (the admin's).
var scopeCatalogue = []string{
	"marquees:read", "marquees:write", "marquees:delete", "marquees:manage",
	"props:read", "props:write", "props:delete",
	"playspecs:read", "playspecs:write", "playspecs:delete",
	"playgrounds:read", "playgrounds:write", "playgrounds:delete",
	"import_templates:read", "import_templates:write",
	"agents:read", "agents:write", "agents:delete",
	"artefacts:read", "artefacts:write", "artefacts:delete",
	"mutters:read", "mutters:write",
	"feedbacks:read", "feedbacks:write", "feedbacks:delete",
	"launch:write", "keys:manage",
	"webhooks:read", "webhooks:write", "webhooks:delete",
	"mcp:access",
	"secrets:read", "secrets:write", "secrets:delete", "secrets:manage",
	"audit_logs:read", "monitor:read",
}

// knownScope reports whether s may be given to a key ("*" is the admin's).
func knownScope(s string) bool { return slices.Contains(scopeCatalogue, s) }

// allows reports whether the key may call a route that needs scope: it
// holds it, "*", or the family's manage scope; a delete is also allowed by
// the family's write scope.
func (k *apiKey) allows(scope string) bool {
	if scope == "" {
		return true
	}
	family, verb, _ := strings.Cut(scope, ":")
	for _, s := range k.Scopes {
		switch s {
		case "*", scope, family + ":manage":
			return true
		}
		if verb == "delete" && s == family+":write" {
			return true
		}
	}
	return false
}

// forbidden is the answer for a key that lacks the scope a route needs.
func forbidden(scope string) error {
	return newAPIError(http.StatusForbidden, codeForbidden,
		"this API key does not have the scope "+scope, map[string]any{"required_scope": scope})
}

// PlayerKey is a player's primary key, as `fibe local serve` prints it.
type PlayerKey struct {
	Player int64
	Label  string // "user A", "user B", ..., "admin"
	Key    string
}

// primaryToken is the primary key of player id: the configured key for
// the first player, derived from it for the others.
func (s *Server) primaryToken(id int64) string {
	if id == 1 {
		return s.cfg.APIKey
	}
	return s.cfg.APIKey + "_player" + strconv.FormatInt(id, 10)
}

// adminToken is the first player's key with scope "*".
func (s *Server) adminToken() string { return s.cfg.APIKey + "_admin" }

// Keys returns the seeded keys: each player's primary key, then the admin
// key (player 1, scope "*").
func (s *Server) Keys() []PlayerKey {
	var out []PlayerKey
	for i := int64(1); i <= int64(s.cfg.Players); i++ {
		out = append(out, PlayerKey{Player: i, Label: "user " + string(rune('A'+i-1)), Key: s.primaryToken(i)})
	}
	return append(out, PlayerKey{Player: 1, Label: "admin", Key: s.adminToken()})
}

// seedPlayers makes sure the configured players exist with their primary
// and admin keys, matching the configured key (a state file may have been
// seeded by a process started with another one).
func (s *Server) seedPlayers(st *state, now time.Time) bool {
	changed := false
	for id := int64(1); id <= int64(s.cfg.Players); id++ {
		if !slices.ContainsFunc(st.Players, func(p *player) bool { return p.ID == id }) {
			st.Players = append(st.Players, &player{ID: id, Username: "local-dev" + suffix(id), Email: "dev" + suffix(id) + "@fibe.local"})
			st.seedWorld(id, now)
			changed = true
		}
		changed = st.ensureSeedKey(id, "primary", s.primaryToken(id), false, now) || changed
	}
	return st.ensureSeedKey(1, "admin", s.adminToken(), true, now) || changed
}

func suffix(id int64) string {
	if id == 1 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

func (st *state) ensureSeedKey(player int64, label, token string, admin bool, now time.Time) bool {
	h := tokenHash(token)
	for _, k := range st.APIKeys {
		if k.Player == player && k.Primary && k.Admin == admin {
			if k.TokenHash == h {
				return false
			}
			k.TokenHash, k.MaskedToken = h, maskToken(token)
			return true
		}
	}
	scopes := slices.Clone(scopeCatalogue)
	if admin {
		scopes = []string{"*"}
	}
	st.APIKeys = append(st.APIKeys, &apiKey{ID: st.nextID("api_key"), Player: player, Label: label, Scopes: scopes,
		TokenHash: h, MaskedToken: maskToken(token), CreatedAt: now, Source: "seed", Primary: true, Admin: admin})
	return true
}

// mintKey creates a key for player and returns it with its token, which is
// shown once and never stored.
func (st *state) mintKey(player int64, label string, scopes []string, expires *time.Time, agentAccessible bool, now time.Time) (*apiKey, string) {
	var b [24]byte
	_, _ = rand.Read(b[:])
	token := "fibe_" + hex.EncodeToString(b[:])
	k := &apiKey{ID: st.nextID("api_key"), Player: player, Label: label, Scopes: scopes, TokenHash: tokenHash(token),
		MaskedToken: maskToken(token), CreatedAt: now, ExpiresAt: expires, AgentAccessible: agentAccessible, Source: "api"}
	st.APIKeys = append(st.APIKeys, k)
	return k, token
}

// maskToken keeps a token's first and last four characters.
func maskToken(token string) string {
	if len(token) <= 12 {
		return "****"
	}
	return token[:8] + strings.Repeat("*", 8) + token[len(token)-4:]
}

// keyOf finds the live key of a bearer token; nil for none, a deleted or
// an expired key.
func (st *state) keyOf(token string, now time.Time) *apiKey {
	if token == "" {
		return nil
	}
	h := tokenHash(token)
	for _, k := range st.APIKeys {
		if subtle.ConstantTimeCompare([]byte(k.TokenHash), []byte(h)) == 1 {
			if k.ExpiresAt != nil && !now.Before(*k.ExpiresAt) {
				return nil
			}
			return k
		}
	}
	return nil
}

// playerByID returns the player, or nil.
func (st *state) playerByID(id int64) *player {
	for _, p := range st.Players {
		if p.ID == id {
			return p
		}
	}
	return nil
}

// nextID hands out the next id of a kind of resource.
func (st *state) nextID(kind string) int64 {
	st.NextIDs[kind]++
	return st.NextIDs[kind]
}

// owned is a resource that belongs to a player.
type owned interface {
	resource
	owner() int64
}

// findOwned returns the item of player whose name is ref, or whose id is
// ref when ref is numeric; nil when there is none (another player's item
// is none).
func findOwned[T owned](items []T, player int64, ref string) T {
	numeric := isNumeric(ref)
	for _, it := range items {
		if it.owner() != player {
			continue
		}
		id, name := it.identity()
		if name == ref || (numeric && strconv.FormatInt(id, 10) == ref) {
			return it
		}
	}
	var none T
	return none
}

// ownedBy keeps the items of player.
func ownedBy[T owned](items []T, player int64) []T {
	var out []T
	for _, it := range items {
		if it.owner() == player {
			out = append(out, it)
		}
	}
	return out
}
