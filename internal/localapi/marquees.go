package localapi

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// marquee is a host that runs playgrounds. The secrets sent on create or
// update (SSH private key, TLS private key, Docker Hub token) are
// write-only: only the fact that one is set is kept, never the secret.
type marquee struct {
	ID                   int64     `json:"id"`
	Owner                int64     `json:"owner"` // the player's id
	Name                 string    `json:"name"`
	Host                 string    `json:"host"`
	Port                 int       `json:"port"`
	User                 string    `json:"user"`
	Status               string    `json:"status,omitempty"` // "" reads as active
	DomainsInput         string    `json:"domains_input,omitempty"`
	HTTPSEnabled         bool      `json:"https_enabled,omitempty"`
	TLSCertificateSource string    `json:"tls_certificate_source,omitempty"`
	ACMEEmail            string    `json:"acme_email,omitempty"`
	DockerhubAuthEnabled bool      `json:"dockerhub_auth_enabled,omitempty"`
	DockerhubUsername    string    `json:"dockerhub_username,omitempty"`
	BuildPlatform        string    `json:"build_platform,omitempty"`
	PropID               *int64    `json:"prop_id,omitempty"`
	HasSSHKey            bool      `json:"has_ssh_key,omitempty"`
	HasTLSKey            bool      `json:"has_tls_key,omitempty"`
	HasDockerhubToken    bool      `json:"has_dockerhub_token,omitempty"`
	PaidUntil            time.Time `json:"paid_until"`
	CreatedAt            time.Time `json:"created_at"`
	UpdatedAt            time.Time `json:"updated_at"`
}

// funded: paid for today (billing_runtime_active).
func (m *marquee) funded(now time.Time) bool { return now.Before(m.PaidUntil) }

func (m *marquee) status() string {
	if m.Status == "" {
		return "active"
	}
	return m.Status
}

// findMarquee finds a marquee of any player (the emulator's own lookups,
// e.g. chaos); a request looks up its player's with rc.findMarquee.
func (st *state) findMarquee(ref string) *marquee { return findByRef(st.Marquees, ref) }

// findMarquee finds a marquee of the request's player.
func (rc *reqCtx) findMarquee(ref string) *marquee { return findOwned(rc.st.Marquees, rc.player, ref) }

func (st *state) marqueeByID(id int64) *marquee { return findByID(st.Marquees, id) }

// defaultMarquee hosts the player's playgrounds created without a
// marquee_id: their `local`, or else their first marquee.
func (rc *reqCtx) defaultMarquee() *marquee {
	if m := rc.findMarquee("local"); m != nil {
		return m
	}
	if mine := ownedBy(rc.st.Marquees, rc.player); len(mine) > 0 {
		return mine[0]
	}
	return nil
}

// defaultMarquee is the first player's default marquee, for the
// emulator's own lookups (chaos).
func (st *state) defaultMarquee() *marquee {
	if m := st.findMarquee("local"); m != nil {
		return m
	}
	if len(st.Marquees) > 0 {
		return st.Marquees[0]
	}
	return nil
}

func (rc *reqCtx) pathMarquee() (*marquee, error) {
	m := rc.findMarquee(rc.param(0))
	if m == nil {
		return nil, notFound("marquee " + strconv.Quote(rc.param(0)))
	}
	return m, nil
}

func (s *Server) listMarquees(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: marqueeSorts, statuses: marqueeStatuses})
	if err != nil {
		return nil, err
	}
	var items []marqueeView
	for _, m := range ownedBy(rc.st.Marquees, rc.player) {
		if lq.has("name", m.Name) && lq.search(m.Name, m.Host) && lq.hasStatus(m.status()) && lq.inTime(m.CreatedAt) {
			items = append(items, marqueeViewOf(m, rc.now))
		}
	}
	return listAnswer(items, lq, func(m marqueeView, col string) any {
		switch col {
		case "name":
			return m.Name
		case "status":
			return m.Status
		case "host":
			return m.Host
		case "created_at":
			return m.CreatedAt
		case "updated_at":
			return m.UpdatedAt
		}
		return m.ID
	}), nil
}

func (s *Server) getMarquee(rc *reqCtx) (*reply, error) {
	m, err := rc.pathMarquee()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, marqueeViewOf(m, rc.now)), nil
}

// marqueeFields reads the writable fields into m (create and update).
func marqueeFields(obj map[string]any, m *marquee) error {
	if host, ok, err := str(obj, "host"); err != nil {
		return err
	} else if ok {
		if strings.TrimSpace(host) == "" || strings.ContainsAny(host, " /@") {
			return invalid("host", "is invalid")
		}
		m.Host = host
	}
	if port, ok, err := integer(obj, "port"); err != nil {
		return err
	} else if ok {
		if port < 1 || port > 65535 {
			return invalid("port", "must be between 1 and 65535")
		}
		m.Port = int(port)
	}
	if user, ok, err := str(obj, "user"); err != nil {
		return err
	} else if ok {
		if strings.TrimSpace(user) == "" {
			return invalid("user", "can't be blank")
		}
		m.User = user
	}
	if status, ok, err := str(obj, "status"); err != nil {
		return err
	} else if ok {
		if !slices.Contains(marqueeStatuses, status) {
			return invalid("status", "is not included in the list ("+strings.Join(marqueeStatuses, ", ")+")")
		}
		m.Status = status
	}
	for _, f := range []struct {
		field string
		into  *string
	}{
		{"domains_input", &m.DomainsInput}, {"tls_certificate_source", &m.TLSCertificateSource},
		{"dockerhub_username", &m.DockerhubUsername}, {"build_platform", &m.BuildPlatform},
	} {
		if v, ok, err := str(obj, f.field); err != nil {
			return err
		} else if ok {
			*f.into = strings.TrimSpace(v)
		}
	}
	if email, ok, err := str(obj, "acme_email"); err != nil {
		return err
	} else if ok {
		email = strings.TrimSpace(email)
		if email != "" && (!strings.Contains(email, "@") || strings.ContainsAny(email, " \t")) {
			return invalid("acme_email", "is not an email address")
		}
		m.ACMEEmail = email
	}
	for _, f := range []struct {
		field string
		into  *bool
	}{{"https_enabled", &m.HTTPSEnabled}, {"dockerhub_auth_enabled", &m.DockerhubAuthEnabled}} {
		if _, present := obj[f.field]; !present {
			continue
		}
		b, err := boolean(obj, f.field)
		if err != nil {
			return err
		}
		*f.into = b
	}
	if v, present := obj["prop_id"]; present {
		if v == nil {
			m.PropID = nil
		} else {
			id, _, err := integer(obj, "prop_id")
			if err != nil {
				return err
			}
			m.PropID = &id
		}
	}
	// Write-only secrets: remember that one is set, never the value.
	for _, f := range []struct {
		field string
		into  *bool
	}{{"ssh_private_key", &m.HasSSHKey}, {"tls_private_key", &m.HasTLSKey}, {"dockerhub_token", &m.HasDockerhubToken}} {
		if v, ok, err := str(obj, f.field); err != nil {
			return err
		} else if ok {
			*f.into = strings.TrimSpace(v) != ""
		}
	}
	if m.DockerhubAuthEnabled {
		if m.DockerhubUsername == "" {
			return invalid("dockerhub_username", "can't be blank when dockerhub_auth_enabled is true")
		}
		if !m.HasDockerhubToken {
			return invalid("dockerhub_token", "can't be blank when dockerhub_auth_enabled is true")
		}
	}
	return nil
}

func (s *Server) createMarquee(rc *reqCtx) (*reply, error) {
	obj, name, err := rc.newNamed("marquee", func(n string) bool { return rc.findMarquee(n) != nil })
	if err != nil {
		return nil, err
	}
	m := &marquee{Name: name, Port: 22, User: "root", PaidUntil: rc.now.AddDate(0, 1, 0), CreatedAt: rc.now, UpdatedAt: rc.now}
	if err := marqueeFields(obj, m); err != nil {
		return nil, err
	}
	if m.Host == "" {
		return nil, invalid("host", "can't be blank")
	}
	rc.st.NextMarqueeID++
	m.ID, m.Owner = rc.st.NextMarqueeID, rc.player
	rc.st.Marquees = append(rc.st.Marquees, m)
	rc.st.Stats.Creates[name]++
	rc.emit("marquee.created", "Marquee", m.ID, marqueeViewOf(m, rc.now))
	out := jsonReply(http.StatusCreated, marqueeViewOf(m, rc.now))
	out.header.Set("Location", "/api/marquees/"+strconv.FormatInt(m.ID, 10))
	return out, nil
}

func (s *Server) updateMarquee(rc *reqCtx) (*reply, error) {
	m, err := rc.pathMarquee()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("marquee")
	if err != nil {
		return nil, err
	}
	name, hasName, err := rename(obj, m.Name, func(n string) bool { return rc.findMarquee(n) != nil })
	if err != nil {
		return nil, err
	}
	updated := *m
	if err := marqueeFields(obj, &updated); err != nil {
		return nil, err
	}
	if hasName {
		updated.Name = name
	}
	updated.UpdatedAt = rc.now
	*m = updated
	rc.emit("marquee.updated", "Marquee", m.ID, marqueeViewOf(m, rc.now))
	return jsonReply(http.StatusOK, marqueeViewOf(m, rc.now)), nil
}

// deleteMarquee refuses while playgrounds still live on the marquee.
func (s *Server) deleteMarquee(rc *reqCtx) (*reply, error) {
	m, err := rc.pathMarquee()
	if err != nil {
		return nil, err
	}
	n := 0
	for _, pg := range rc.st.Playgrounds {
		if pg.MarqueeID == m.ID {
			n++
		}
	}
	if n > 0 {
		return nil, conflict("marquee "+m.Name+" still hosts "+itoa(n)+" playground(s)", "marquee_in_use",
			map[string]any{"playgrounds": n})
	}
	rc.st.Marquees = slices.DeleteFunc(rc.st.Marquees, func(x *marquee) bool { return x == m })
	rc.emit("marquee.destroyed", "Marquee", m.ID, marqueeViewOf(m, rc.now))
	return newReply(http.StatusNoContent), nil
}

func (s *Server) testMarqueeConnection(rc *reqCtx) (*reply, error) {
	m, err := rc.pathMarquee()
	if err != nil {
		return nil, err
	}
	op := rc.newOp(opConnectionTest, connTime)
	op.MarqueeID = m.ID
	return rc.accepted(op), nil
}

func (s *Server) newMarqueeSSHKey(rc *reqCtx) (*reply, error) {
	m, err := rc.pathMarquee()
	if err != nil {
		return nil, err
	}
	rc.st.KeySerial++
	op := rc.newOp(opSSHKey, sshKeyTime)
	op.MarqueeID, op.KeySerial = m.ID, rc.st.KeySerial
	return rc.accepted(op), nil
}

// connectionTest fails for hosts under .invalid, the reserved TLD. The
// answer has the platform's field names: success, message, error.
func connectionTest(m *marquee) map[string]any {
	target := m.User + "@" + m.Host + ":" + itoa(m.Port)
	if strings.HasSuffix(m.Host, ".invalid") {
		return map[string]any{"success": false, "message": "could not connect to " + target,
			"error": "ssh: dial " + m.Host + ": no such host"}
	}
	return map[string]any{"success": true, "message": "connected to " + target, "error": nil}
}

// publicKey makes a well-formed, deterministic ed25519 public key line.
func publicKey(m *marquee, serial int64) string {
	seed := sha256.Sum256([]byte(m.Name + "/" + strconv.FormatInt(serial, 10)))
	const algo = "ssh-ed25519"
	blob := binary.BigEndian.AppendUint32(nil, uint32(len(algo)))
	blob = append(blob, algo...)
	blob = binary.BigEndian.AppendUint32(blob, uint32(len(seed)))
	blob = append(blob, seed[:]...)
	return algo + " " + base64.StdEncoding.EncodeToString(blob) + " fibe@" + m.Name
}
