package localapi

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Secrets (docs/api.md, "Secrets"): values kept for a player, named by a
// key. A value is never in a list, nor in a get without reveal=true, nor
// in the answer of a create or an update, nor in an event, an error or a
// log line. The state holds it as sent (the state file is the player's
// own, 0600).

// secretValueMax is the longest value a secret may hold, in characters.
const secretValueMax = 65536

// secretKeyPattern is what a key may be made of.
var secretKeyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,255}$`) })

// secretDescriptionMax bounds a description, in characters.
const secretDescriptionMax = 1000

// secretState is the players' secrets.
type secretState struct {
	Secrets []*secret `json:"secrets,omitempty"`
}

// secret is one secret of a player.
type secret struct {
	ID          int64     `json:"id"`
	Owner       int64     `json:"owner"`
	Key         string    `json:"key"`
	Value       string    `json:"value"`
	Description string    `json:"description,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

func (s *secret) identity() (int64, string) { return s.ID, s.Key }
func (s *secret) owner() int64              { return s.Owner }

// secretView is a secret as the API shows it; Value only when revealed.
type secretView struct {
	ID          int64     `json:"id"`
	Key         string    `json:"key"`
	Description *string   `json:"description"`
	Value       *string   `json:"value,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// view is the secret without its value.
func (s *secret) view() secretView {
	v := secretView{ID: s.ID, Key: s.Key, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
	if s.Description != "" {
		d := s.Description
		v.Description = &d
	}
	return v
}

func (s *Server) secretRoutes(rt *router) {
	rt.add("GET", "/api/secrets", "secrets:read", s.listSecrets)
	rt.add("POST", "/api/secrets", "secrets:write", s.createSecret)
	rt.add("GET", "/api/secrets/{id}", "secrets:read", s.getSecret)
	rt.add("PATCH", "/api/secrets/{id}", "secrets:write", s.updateSecret)
	rt.add("PUT", "/api/secrets/{id}", "secrets:write", s.updateSecret)
	rt.add("DELETE", "/api/secrets/{id}", "secrets:delete", s.deleteSecret)
}

func (rc *reqCtx) pathSecret() (*secret, error) {
	sec := findOwned(rc.st.Secrets, rc.player, rc.param(0))
	if sec == nil {
		return nil, notFound("secret " + strconv.Quote(rc.param(0)))
	}
	return sec, nil
}

func (s *Server) listSecrets(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "updated_at", "key", "id"}})
	if err != nil {
		return nil, err
	}
	var kept []secretView
	for _, sec := range ownedBy(rc.st.Secrets, rc.player) {
		if lq.has("key", sec.Key) && lq.has("name", sec.Key) && lq.search(sec.Key, sec.Description) && lq.inTime(sec.CreatedAt) {
			kept = append(kept, sec.view())
		}
	}
	return listAnswer(kept, lq, func(v secretView, col string) any {
		switch col {
		case "key":
			return v.Key
		case "created_at":
			return v.CreatedAt
		case "updated_at":
			return v.UpdatedAt
		}
		return v.ID
	}), nil
}

// getSecret answers a secret, with its value when reveal=true.
func (s *Server) getSecret(rc *reqCtx) (*reply, error) {
	reveal, err := boolParam(rc.c.query, "reveal")
	if err != nil {
		return nil, err
	}
	sec, err := rc.pathSecret()
	if err != nil {
		return nil, err
	}
	v := sec.view()
	if reveal != nil && *reveal {
		value := sec.Value
		v.Value = &value
	}
	return jsonReply(http.StatusOK, v), nil
}

func (s *Server) createSecret(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("secret")
	if err != nil {
		return nil, err
	}
	key, _, err := str(obj, "key")
	if err != nil {
		return nil, err
	}
	switch {
	case key == "":
		return nil, invalid("key", "can't be blank")
	case !secretKeyPattern().MatchString(key):
		return nil, invalid("key", "must be 1 to 255 letters, digits, _ or -")
	}
	for _, other := range ownedBy(rc.st.Secrets, rc.player) {
		if other.Key == key {
			return nil, invalid("key", "has already been taken")
		}
	}
	sec := &secret{Owner: rc.player, Key: key, CreatedAt: rc.now, UpdatedAt: rc.now}
	if _, present := obj["value"]; !present {
		return nil, invalid("value", "can't be blank")
	}
	if err := secretFields(obj, sec); err != nil {
		return nil, err
	}
	sec.ID = rc.st.nextID("secret")
	rc.st.Secrets = append(rc.st.Secrets, sec)
	v := sec.view()
	rc.emit("secret.created", "Secret", sec.ID, v)
	out := jsonReply(http.StatusCreated, v)
	out.header.Set("Location", "/api/secrets/"+strconv.FormatInt(sec.ID, 10))
	return out, nil
}

func (s *Server) updateSecret(rc *reqCtx) (*reply, error) {
	sec, err := rc.pathSecret()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("secret")
	if err != nil {
		return nil, err
	}
	if k, ok, err := str(obj, "key"); err != nil {
		return nil, err
	} else if ok && k != sec.Key {
		return nil, invalid("key", "cannot be changed")
	}
	updated := *sec
	if err := secretFields(obj, &updated); err != nil {
		return nil, err
	}
	updated.UpdatedAt = rc.now
	*sec = updated
	v := sec.view()
	rc.emit("secret.updated", "Secret", sec.ID, v)
	return jsonReply(http.StatusOK, v), nil
}

func (s *Server) deleteSecret(rc *reqCtx) (*reply, error) {
	sec, err := rc.pathSecret()
	if err != nil {
		return nil, err
	}
	rc.st.Secrets = slices.DeleteFunc(rc.st.Secrets, func(x *secret) bool { return x == sec })
	rc.emit("secret.destroyed", "Secret", sec.ID, sec.view())
	return newReply(http.StatusNoContent), nil
}

// secretFields reads value and description into sec. A refusal never
// quotes the value.
func secretFields(obj map[string]any, sec *secret) error {
	if v, present := obj["value"]; present {
		value, ok := v.(string)
		switch {
		case !ok:
			return invalid("value", "must be a string")
		case value == "":
			return invalid("value", "can't be blank")
		case utf8.RuneCountInString(value) > secretValueMax:
			return invalid("value", "is too long (maximum is "+strconv.Itoa(secretValueMax)+" characters)")
		}
		sec.Value = value
	}
	if d, ok, err := str(obj, "description"); err != nil {
		return err
	} else if ok {
		d = strings.TrimSpace(d)
		if utf8.RuneCountInString(d) > secretDescriptionMax {
			return invalid("description", "is too long (maximum is "+strconv.Itoa(secretDescriptionMax)+" characters)")
		}
		sec.Description = d
	}
	return nil
}
