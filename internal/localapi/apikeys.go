package localapi

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The routes of /api/api_keys (docs/api.md, "API keys"); the keys
// themselves are in players.go. A token is in the answer of the create
// that minted it and nowhere else: lists show masked_token.

// apiKeyLabelMax bounds a key's label, in characters.
const apiKeyLabelMax = 255

func (s *Server) apiKeyRoutes(rt *router) {
	rt.add("GET", "/api/api_keys", "keys:manage", s.listAPIKeys)
	rt.add("POST", "/api/api_keys", "keys:manage", s.createAPIKey)
	rt.add("DELETE", "/api/api_keys/{id}", "keys:manage", s.deleteAPIKey)
}

// apiKeyView is a key as the API shows it; Token only in a create's answer.
type apiKeyView struct {
	ID                   int64      `json:"id"`
	Label                string     `json:"label"`
	Scopes               []string   `json:"scopes"`
	ExpiresAt            *time.Time `json:"expires_at"`
	ClientID             *string    `json:"client_id"`
	CreatedAt            time.Time  `json:"created_at"`
	RateLimitRPHOverride *int64     `json:"rate_limit_rph_override"`
	MaskedToken          string     `json:"masked_token"`
	AgentAccessible      bool       `json:"agent_accessible"`
	Source               string     `json:"source"`
	Token                string     `json:"token,omitempty"`
}

func (k *apiKey) view() apiKeyView {
	return apiKeyView{ID: k.ID, Label: k.Label, Scopes: slices.Clone(k.Scopes), ExpiresAt: k.ExpiresAt, CreatedAt: k.CreatedAt,
		MaskedToken: k.MaskedToken, AgentAccessible: k.AgentAccessible, Source: k.Source}
}

func (s *Server) listAPIKeys(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "label", "id"}})
	if err != nil {
		return nil, err
	}
	var kept []apiKeyView
	for _, k := range rc.st.APIKeys {
		if k.Player == rc.player && lq.has("label", k.Label) && lq.has("name", k.Label) && lq.search(k.Label) && lq.inTime(k.CreatedAt) {
			kept = append(kept, k.view())
		}
	}
	return listAnswer(kept, lq, func(v apiKeyView, col string) any {
		switch col {
		case "label":
			return v.Label
		case "created_at":
			return v.CreatedAt
		}
		return v.ID
	}), nil
}

// createAPIKey mints a key of the player. It needs a label and at least
// one scope of the catalogue; "*" only from a key that holds it.
func (s *Server) createAPIKey(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("api_key")
	if err != nil {
		return nil, err
	}
	label, _, err := str(obj, "label")
	if err != nil {
		return nil, err
	}
	label = strings.TrimSpace(label)
	switch {
	case label == "":
		return nil, invalid("label", "can't be blank")
	case utf8.RuneCountInString(label) > apiKeyLabelMax:
		return nil, invalid("label", "is too long (maximum is "+strconv.Itoa(apiKeyLabelMax)+" characters)")
	}
	scopes, err := keyScopes(obj, rc.key)
	if err != nil {
		return nil, err
	}
	var expires *time.Time
	if v, ok, err := str(obj, "expires_at"); err != nil {
		return nil, err
	} else if ok && v != "" {
		t, ok := parseISOTime(v)
		if !ok {
			return nil, invalid("expires_at", "is not an ISO 8601 date or time")
		}
		if !t.After(rc.now) {
			return nil, invalid("expires_at", "must be in the future")
		}
		expires = &t
	}
	agent := false
	if _, present := obj["agent_accessible"]; present {
		if agent, err = boolean(obj, "agent_accessible"); err != nil {
			return nil, err
		}
	}
	k, token := rc.st.mintKey(rc.player, label, scopes, expires, agent, rc.now)
	rc.emit("api_key.created", "ApiKey", k.ID, k.view())
	v := k.view()
	v.Token = token
	out := jsonReply(http.StatusCreated, v)
	out.header.Set("Cache-Control", "no-store")
	return out, nil
}

// keyScopes reads the scopes of a new key: a non-empty list of known
// scopes, without repeats; "*" only when the creating key holds it.
func keyScopes(obj map[string]any, creator *apiKey) ([]string, error) {
	raw, present := obj["scopes"]
	if !present || raw == nil {
		return nil, invalid("scopes", "can't be blank (give at least one scope)")
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, invalid("scopes", "must be a list of scopes")
	}
	if len(list) == 0 {
		return nil, invalid("scopes", "can't be blank (give at least one scope)")
	}
	var scopes []string
	for _, v := range list {
		sc, ok := v.(string)
		switch {
		case !ok:
			return nil, invalid("scopes", "must be a list of scopes")
		case sc == "*":
			if creator == nil || !slices.Contains(creator.Scopes, "*") {
				return nil, invalid("scopes", "* can only be granted by a key that holds it")
			}
		case !knownScope(sc):
			return nil, invalid("scopes", "has an unknown scope "+strconv.Quote(sc))
		}
		if !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	return scopes, nil
}

// deleteAPIKey deletes a key of the player: its token is refused (401)
// from the next request on, this request's own key included.
func (s *Server) deleteAPIKey(rc *reqCtx) (*reply, error) {
	ref := rc.param(0)
	id, err := strconv.ParseInt(ref, 10, 64)
	var k *apiKey
	if err == nil {
		for _, c := range rc.st.APIKeys {
			if c.ID == id && c.Player == rc.player {
				k = c
			}
		}
	}
	if k == nil {
		return nil, notFound("api key " + strconv.Quote(ref))
	}
	rc.st.APIKeys = slices.DeleteFunc(rc.st.APIKeys, func(x *apiKey) bool { return x == k })
	rc.emit("api_key.destroyed", "ApiKey", k.ID, k.view())
	return newReply(http.StatusNoContent), nil
}
