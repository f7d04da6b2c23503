package localapi

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// playground is the stored form; playgroundView is what the API shows.
type playground struct {
	ID                 int64             `json:"id"`
	Owner              int64             `json:"owner"` // the player's id
	Name               string            `json:"name"`
	Status             string            `json:"status"`
	MarqueeID          int64             `json:"marquee_id"`
	PlayspecID         int64             `json:"playspec_id"`
	EnvOverrides       map[string]string `json:"env_overrides,omitempty"`
	StateReason        string            `json:"state_reason,omitempty"`
	StateReasons       []string          `json:"state_reasons,omitempty"`
	ErrorMessage       string            `json:"error_message,omitempty"`
	ErrorStep          string            `json:"error_step,omitempty"`
	ErrorStepLabel     string            `json:"error_step_label,omitempty"`
	ErrorDetails       map[string]any    `json:"error_details,omitempty"`
	FailureDiagnostics map[string]any    `json:"failure_diagnostics,omitempty"`
	BuildStatuses      []buildStatus     `json:"build_statuses,omitempty"`
	Maintenance        bool              `json:"maintenance,omitempty"`
	ExpiresAt          time.Time         `json:"expires_at"`
	CreatedAt          time.Time         `json:"created_at"`
	UpdatedAt          time.Time         `json:"updated_at"`
	ReadyAt            time.Time         `json:"ready_at"` // when `creating` turns `running`
}

// Platform durations at speed 1; Config.Speed divides them.
const (
	provisionTime    = 3 * time.Second
	defaultLifetime  = 24 * time.Hour
	defaultExtension = 24 * time.Hour // an extend without duration_hours
)

// Names are lowercase DNS labels; an all-digit name would read as an id.
var namePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`) })

// rename reads an update's optional new name: valid, and not taken by
// another resource of the same kind (taken reports that).
func rename(obj map[string]any, current string, taken func(string) bool) (string, bool, error) {
	name, has, err := str(obj, "name")
	if err != nil || !has || name == current {
		return name, has, err
	}
	if err := validateName(name); err != nil {
		return "", false, err
	}
	if taken(name) {
		return "", false, invalid("name", "has already been taken")
	}
	return name, true, nil
}

func validateName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("name", "can't be blank")
	case !namePattern().MatchString(name) || isNumeric(name):
		return invalid("name", "is invalid (lowercase letters, digits and hyphens, not only digits, at most 63)")
	}
	return nil
}

// findPlayground finds a playground of any player; a request looks up its
// player's with rc.findPlayground.
func (st *state) findPlayground(ref string) *playground { return findByRef(st.Playgrounds, ref) }

// findPlayground finds a playground of the request's player.
func (rc *reqCtx) findPlayground(ref string) *playground {
	return findOwned(rc.st.Playgrounds, rc.player, ref)
}

func (st *state) playgroundByID(id int64) *playground { return findByID(st.Playgrounds, id) }

// pathPlayground resolves the {id} of the path, or answers 404.
func (rc *reqCtx) pathPlayground() (*playground, error) {
	pg := rc.findPlayground(rc.param(0))
	if pg == nil {
		return nil, notFound("playground " + strconv.Quote(rc.param(0)))
	}
	return pg, nil
}

// requireFunded answers 402 for work on a marquee that has not paid.
func (rc *reqCtx) requireFunded(marqueeID int64) error {
	m := rc.st.marqueeByID(marqueeID)
	if m == nil || m.funded(rc.now) {
		return nil
	}
	return newAPIError(http.StatusPaymentRequired, codeNotFunded,
		"marquee "+m.Name+" is not funded: top up to continue",
		map[string]any{"marquee_id": m.ID, "marquee": m.Name, "paid_until": m.PaidUntil})
}

func (s *Server) listPlaygrounds(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: playgroundSorts, statuses: playgroundStatuses})
	if err != nil {
		return nil, err
	}
	var psID, mqID int64
	if v := rc.c.query.Get("playspec_id"); v != "" {
		ps := rc.st.findPlayspec(rc.player, v)
		if ps == nil {
			return nil, invalid("playspec_id", "does not exist (known: "+strings.Join(rc.st.playspecNames(rc.player), ", ")+")")
		}
		psID = ps.ID
	}
	if v := rc.c.query.Get("marquee_id"); v != "" {
		m := rc.findMarquee(v)
		if m == nil {
			return nil, invalid("marquee_id", "does not exist")
		}
		mqID = m.ID
	}
	jobMode, err := boolParam(rc.c.query, "job_mode")
	if err != nil {
		return nil, err
	}
	result := rc.c.query.Get("result_status")
	if result != "" && !slices.Contains(jobResults, result) {
		return nil, invalid("result_status", "is not included in the list ("+strings.Join(jobResults, ", ")+")")
	}
	var items []playgroundView
	for _, pg := range ownedBy(rc.st.Playgrounds, rc.player) {
		if (psID == 0 || pg.PlayspecID == psID) && (mqID == 0 || pg.MarqueeID == mqID) && rc.st.keepsJob(pg, jobMode, result) &&
			lq.has("name", pg.Name) && lq.search(pg.Name) && lq.hasStatus(pg.Status) && lq.inTime(pg.CreatedAt) {
			items = append(items, rc.st.playgroundView(pg, rc.now))
		}
	}
	return listAnswer(items, lq, func(pg playgroundView, col string) any {
		switch col {
		case "name":
			return pg.Name
		case "status":
			return pg.Status
		case "created_at":
			return pg.CreatedAt
		case "updated_at":
			return pg.UpdatedAt
		case "expires_at":
			return pg.ExpiresAt
		}
		return pg.ID
	}), nil
}

func (s *Server) getPlayground(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, rc.st.playgroundView(pg, rc.now)), nil
}

func (s *Server) createPlayground(rc *reqCtx) (*reply, error) {
	obj, name, err := rc.newNamed("playground", func(n string) bool { return rc.findPlayground(n) != nil })
	if err != nil {
		return nil, err
	}
	ps, err := rc.newPlaygroundPlayspec(obj)
	if err != nil {
		return nil, err
	}
	m, err := rc.newPlaygroundMarquee(obj)
	if err != nil {
		return nil, err
	}
	env, _, err := stringMap(obj, "env_overrides")
	if err != nil {
		return nil, err
	}
	if err := rc.requireFunded(m.ID); err != nil {
		return nil, err
	}

	pg := rc.addPlayground(name, m, ps.ID, env)
	rc.emit("playground.created", "Playground", pg.ID, rc.st.playgroundView(pg, rc.now))
	if s.cfg.AsyncCreate {
		op := rc.newOp(opCreate, registerTime)
		op.PlaygroundID, op.MarqueeID = pg.ID, pg.MarqueeID
		return rc.accepted(op), nil
	}
	out := jsonReply(http.StatusCreated, rc.st.playgroundView(pg, rc.now))
	out.header.Set("Location", "/api/playgrounds/"+strconv.FormatInt(pg.ID, 10))
	return out, nil
}

// addPlayground adds a playground of the player's, creating, on marquee m
// (a create, a launch).
func (rc *reqCtx) addPlayground(name string, m *marquee, playspecID int64, env map[string]string) *playground {
	rc.st.NextPlaygroundID++
	pg := &playground{
		ID: rc.st.NextPlaygroundID, Owner: rc.player, Name: name, Status: "creating", MarqueeID: m.ID, PlayspecID: playspecID,
		EnvOverrides: env, CreatedAt: rc.now, UpdatedAt: rc.now,
		ExpiresAt: rc.now.Add(defaultLifetime), ReadyAt: rc.now.Add(rc.s.scaled(provisionTime)),
	}
	rc.st.Playgrounds = append(rc.st.Playgrounds, pg)
	rc.startJob(pg, rc.st.playspecByID(playspecID))
	rc.st.Stats.Creates[name]++
	return pg
}

// newPlaygroundPlayspec reads the required playspec_id of a create.
func (rc *reqCtx) newPlaygroundPlayspec(obj map[string]any) (*playspec, error) {
	psRef, ok, err := ref(obj, "playspec_id")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, invalid("playspec_id", "can't be blank")
	}
	ps := rc.st.findPlayspec(rc.player, psRef)
	if ps == nil {
		return nil, invalid("playspec_id", "does not exist (known: "+strings.Join(rc.st.playspecNames(rc.player), ", ")+")")
	}
	return ps, nil
}

// newPlaygroundMarquee reads the marquee_id of a create: a marquee that
// takes new playgrounds, the default one when none is named.
func (rc *reqCtx) newPlaygroundMarquee(obj map[string]any) (*marquee, error) {
	mqRef, ok, err := ref(obj, "marquee_id")
	if err != nil {
		return nil, err
	}
	m := rc.defaultMarquee()
	if ok {
		m = rc.findMarquee(mqRef)
	}
	if m == nil {
		var names []string
		for _, known := range ownedBy(rc.st.Marquees, rc.player) {
			names = append(names, known.Name)
		}
		return nil, invalid("marquee_id", "does not exist (known: "+strings.Join(names, ", ")+")")
	}
	if m.status() == "disabled" {
		return nil, invalid("marquee_id", "is disabled: marquee "+m.Name+" takes no new playgrounds")
	}
	return m, nil
}

func (s *Server) updatePlayground(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	if err := rc.refuseIfDeleting(pg); err != nil {
		return nil, err
	}
	obj, err := rc.object("playground")
	if err != nil {
		return nil, err
	}
	name, hasName, err := rename(obj, pg.Name, func(n string) bool { return rc.findPlayground(n) != nil })
	if err != nil {
		return nil, err
	}
	env, hasEnv, err := stringMap(obj, "env_overrides")
	if err != nil {
		return nil, err
	}
	if hasName {
		pg.Name = name
	}
	if hasEnv {
		pg.EnvOverrides = env
	}
	pg.UpdatedAt = rc.now
	rc.emit("playground.updated", "Playground", pg.ID, rc.st.playgroundView(pg, rc.now))
	return jsonReply(http.StatusOK, rc.st.playgroundView(pg, rc.now)), nil
}

func (s *Server) playgroundStatus(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, rc.st.playgroundStatusView(pg, rc.now)), nil
}

func (s *Server) playgroundAction(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	kind, _, err := str(rc.body, "action_type")
	if err != nil {
		return nil, err
	}
	spec, known := actions[kind]
	if kind == "" {
		return nil, invalid("action_type", "can't be blank")
	}
	if !known {
		return nil, invalid("action_type", "is not included in the list ("+strings.Join(actionNames(), ", ")+")")
	}
	force, err := boolean(rc.body, "force")
	if err != nil {
		return nil, err
	}
	if err := rc.requireFunded(pg.MarqueeID); err != nil {
		return nil, err
	}
	if busy := rc.st.activeAction(pg.ID); busy != nil {
		return nil, conflict("another operation ("+busy.Kind+") is running on playground "+pg.Name,
			"operation_in_progress", map[string]any{"request_id": busy.ID, "action_type": busy.Kind})
	}
	op := rc.newOp(kind, spec.duration)
	op.PlaygroundID, op.MarqueeID, op.Force = pg.ID, pg.MarqueeID, force
	// An action on a playground still being created waits for it.
	if pg.Status == "creating" && op.StartAt.Before(pg.ReadyAt) {
		op.DoneAt = pg.ReadyAt.Add(op.DoneAt.Sub(op.StartAt))
		op.StartAt = pg.ReadyAt
	}
	return rc.accepted(op), nil
}

func (s *Server) refreshPlaygroundStatus(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	op := rc.newOp(opRefreshStatus, refreshTime)
	op.PlaygroundID, op.MarqueeID = pg.ID, pg.MarqueeID
	return rc.accepted(op), nil
}

func (s *Server) extendPlayground(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	// No body (or no duration_hours) is the platform's default extension.
	hours, ok, err := integer(rc.body, "duration_hours")
	if err != nil {
		return nil, err
	}
	if !ok {
		hours = int64(defaultExtension / time.Hour)
	}
	if hours < 1 || hours > 720 {
		return nil, invalid("duration_hours", "must be between 1 and 720")
	}
	if err := rc.refuseIfDeleting(pg); err != nil {
		return nil, err
	}
	if err := rc.requireFunded(pg.MarqueeID); err != nil {
		return nil, err
	}
	base := pg.ExpiresAt
	if base.Before(rc.now) {
		base = rc.now
	}
	pg.ExpiresAt = base.Add(time.Duration(hours) * time.Hour)
	pg.UpdatedAt = rc.now
	return jsonReply(http.StatusOK, map[string]any{
		"id": pg.ID, "expires_at": pg.ExpiresAt, "time_remaining": timeRemaining(pg.ExpiresAt, rc.now),
	}), nil
}

func (s *Server) playgroundLogs(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	service, hasService, err := str(rc.body, "service")
	if err != nil {
		return nil, err
	}
	if ps := rc.st.playspecByID(pg.PlayspecID); hasService && service != "" && ps != nil && !ps.hasService(service) {
		return nil, invalid("service", "is not a service of this playground ("+strings.Join(ps.serviceNames(), ", ")+")")
	}
	tail, hasTail, err := integer(rc.body, "tail")
	if err != nil {
		return nil, err
	}
	if !hasTail {
		tail = 100
	}
	if tail < 1 || tail > 10000 {
		return nil, invalid("tail", "must be between 1 and 10000")
	}
	op := rc.newOp(opLogs, logsTime)
	op.PlaygroundID, op.MarqueeID, op.Service, op.Tail = pg.ID, pg.MarqueeID, service, int(tail)
	return rc.accepted(op), nil
}
