package localapi

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"
)

// operation is an accepted (202) request. Its status is a function of wall
// time: queued until StartAt, running until DoneAt, then success or error.
type operation struct {
	ID           string          `json:"id"`
	Kind         string          `json:"kind"`
	PlaygroundID int64           `json:"playground_id,omitempty"`
	MarqueeID    int64           `json:"marquee_id,omitempty"`
	Service      string          `json:"service,omitempty"`
	Tail         int             `json:"tail,omitempty"`
	Force        bool            `json:"force,omitempty"`
	KeySerial    int64           `json:"key_serial,omitempty"`
	CreatedAt    time.Time       `json:"created_at"`
	StartAt      time.Time       `json:"start_at"`
	DoneAt       time.Time       `json:"done_at"`
	Started      bool            `json:"started,omitempty"`
	Done         bool            `json:"done,omitempty"`
	Result       json.RawMessage `json:"result,omitempty"`
	Error        *opError        `json:"error,omitempty"`

	// Params are what an operation of a kind in opFinishers needs to
	// finish, as its family's file chose.
	Params map[string]string `json:"params,omitempty"`
}

type opError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// Operation kinds besides the playground actions.
const (
	opRefreshStatus  = "refresh_status"
	opLogs           = "logs"
	opConnectionTest = "connection_test"
	opSSHKey         = "ssh_key"
	opCreate         = "create"  // a create answered 202 (Config.AsyncCreate)
	opDestroy        = "destroy" // a delete answered 202; see deletion.go
)

// Platform durations at speed 1.
const (
	queueTime   = 500 * time.Millisecond
	refreshTime = 300 * time.Millisecond
	logsTime    = 500 * time.Millisecond
	connTime    = time.Second
	sshKeyTime  = 500 * time.Millisecond
	// registerTime is how long an async create takes to answer with the
	// playground; provisioning (provisionTime) goes on after it.
	registerTime = 300 * time.Millisecond
	destroyTime  = 2 * time.Second
)

// actionSpec says how an action moves a playground: its status while the
// action runs and after it succeeds.
type actionSpec struct {
	duration time.Duration
	during   string // "" leaves the status alone
	after    string
	builds   bool // a build step: fails for a broken playspec
}

var actions = map[string]actionSpec{
	"rollout":             {duration: 3 * time.Second, during: "building", after: "running", builds: true},
	"retry_compose":       {duration: 2 * time.Second, during: "building", after: "running", builds: true},
	"hard_restart":        {duration: 2 * time.Second, during: "pending", after: "running"},
	"stop":                {duration: time.Second, during: "stopping", after: "stopped"},
	"start":               {duration: 1500 * time.Millisecond, during: "pending", after: "running"},
	"enable_maintenance":  {duration: 500 * time.Millisecond},
	"disable_maintenance": {duration: 500 * time.Millisecond},
}

func actionNames() []string {
	names := make([]string, 0, len(actions))
	for k := range actions {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// newOp registers an operation with this request's id.
func (rc *reqCtx) newOp(kind string, work time.Duration) *operation {
	start := rc.now.Add(rc.s.scaled(queueTime))
	op := &operation{
		ID: rc.rid, Kind: kind, CreatedAt: rc.now,
		StartAt: start, DoneAt: start.Add(rc.s.scaled(work)),
	}
	rc.st.Ops[op.ID] = op
	return op
}

// accepted is the 202 answer for op.
func (rc *reqCtx) accepted(op *operation) *reply {
	u := rc.s.statusURL(rc.c, op.ID)
	r := jsonReply(http.StatusAccepted, map[string]any{
		"request_id": op.ID, "status": op.status(rc.now), "status_url": u,
	})
	r.header.Set("Location", u)
	return r
}

// altStatusPattern is where status_url points in the "alt" style, so a
// client that builds /api/async_requests/<id> itself is not exercising it.
const altStatusPattern = "/api/operations/{id}/state"

func (s *Server) statusURL(c *call, id string) string {
	switch s.cfg.StatusURLStyle {
	case "alt":
		return "/api/operations/" + id + "/state"
	case "absolute":
		scheme := c.scheme
		if scheme == "" {
			scheme = "http"
		}
		return scheme + "://" + c.host + "/api/async_requests/" + id
	}
	return "/api/async_requests/" + id
}

func (op *operation) status(now time.Time) string {
	switch {
	case op.Done && op.Error != nil:
		return "error"
	case op.Done:
		return "success"
	case !now.Before(op.StartAt):
		return "running"
	}
	return "queued"
}

// activeAction is the unfinished action (or deletion) on a playground, if any.
func (st *state) activeAction(pgID int64) *operation {
	for _, op := range st.Ops {
		if _, isAction := actions[op.Kind]; (isAction || op.Kind == opDestroy) && op.PlaygroundID == pgID && !op.Done {
			return op
		}
	}
	return nil
}

func (st *state) startOp(op *operation) {
	spec, isAction := actions[op.Kind]
	pg := st.playgroundByID(op.PlaygroundID)
	if op.Kind == opDestroy && pg != nil {
		pg.Status, pg.UpdatedAt = destroyingStatus, op.StartAt
		return
	}
	if !isAction || pg == nil || spec.during == "" {
		return
	}
	pg.Status, pg.UpdatedAt = spec.during, op.StartAt
}

// opFinishers finish the operations of kinds that a family of resources
// adds (its own file registers them in an init function): they set the
// operation's outcome (succeed or fail) and apply it to the state.
var opFinishers = map[string]func(st *state, op *operation){}

// finishOp computes an operation's outcome and applies it.
func (st *state) finishOp(op *operation) {
	if op.Result != nil || op.Error != nil {
		return // decided when it was accepted (a template upgrade, a source refresh)
	}
	if finish := opFinishers[op.Kind]; finish != nil {
		finish(st, op)
		return
	}
	at := op.DoneAt
	if op.Kind == opConnectionTest || op.Kind == opSSHKey {
		m := st.marqueeByID(op.MarqueeID)
		if m == nil {
			op.fail(codeNotFound, "the marquee was deleted", nil)
			return
		}
		if op.Kind == opConnectionTest {
			op.succeed(connectionTest(m))
		} else {
			op.succeed(map[string]string{"public_key": publicKey(m, op.KeySerial)})
		}
		return
	}
	pg := st.playgroundByID(op.PlaygroundID)
	if pg == nil {
		op.fail(codeNotFound, "the playground was deleted", map[string]any{"playground_id": op.PlaygroundID})
		return
	}
	switch op.Kind {
	case opRefreshStatus:
		op.succeed(st.playgroundStatusView(pg, at))
		return
	case opLogs:
		op.succeed(logSnapshot(pg, st.playspecByID(pg.PlayspecID), op.Service, op.Tail, at))
		return
	case opCreate:
		op.succeed(st.playgroundView(pg, at))
		return
	case opDestroy:
		st.removePlayground(pg)
		op.succeed(map[string]any{"id": pg.ID, "name": pg.Name, "deleted": true})
		return
	}
	spec := actions[op.Kind]
	pg.UpdatedAt = at
	ps := st.playspecByID(pg.PlayspecID)
	if bad, unpullable := ps.unpullable(); spec.builds && unpullable {
		failBuild(pg, ps, bad)
		op.fail(codeBuildFailed, pg.ErrorMessage, map[string]any{
			"step": "build", "reason": "image_pull_failed", "service": bad.Name, "playground_id": pg.ID,
		})
		return
	}
	switch op.Kind {
	case "enable_maintenance":
		pg.Maintenance = true
	case "disable_maintenance":
		pg.Maintenance = false
	case "stop":
		pg.Status = spec.after
	default:
		pg.Status = spec.after
		clearFailure(pg)
		if spec.builds {
			pg.BuildStatuses = nil
			for _, s := range ps.serviceList() {
				pg.BuildStatuses = append(pg.BuildStatuses, buildStatus{Service: s.Name, Status: "success"})
			}
		}
	}
	op.succeed(st.playgroundStatusView(pg, at))
}

// failBuild leaves a playground as a failed image pull (of bad's image) does.
func failBuild(pg *playground, ps *playspec, bad serviceSpec) {
	image, svc := bad.Image, bad.Name
	pullErr := "image_pull_failed: pull access denied for " + image
	pg.Status = "error"
	pg.StateReason = "image_pull_failed"
	pg.StateReasons = []string{"image_pull_failed", "build_failed"}
	pg.ErrorMessage = "Build failed: could not pull image " + image
	pg.ErrorStep, pg.ErrorStepLabel = "build", "Building images"
	pg.ErrorDetails = map[string]any{"step": "build", "reason": "image_pull_failed", "service": svc, "image": image}
	pg.FailureDiagnostics = map[string]any{
		"step": "build", "reason": "image_pull_failed", "service": svc, "image": image,
		"log_tail":   []string{"Pulling " + svc + " (" + image + ")...", "Error response from daemon: pull access denied for " + image},
		"suggestion": "check the image name and the registry credentials of the playspec",
	}
	pg.BuildStatuses = nil
	for _, s := range ps.Services {
		b := buildStatus{Service: s.Name, Status: "skipped"}
		if s.Name == svc {
			b.Status, b.Error = "failed", &pullErr
		}
		pg.BuildStatuses = append(pg.BuildStatuses, b)
	}
}

func clearFailure(pg *playground) {
	pg.StateReason, pg.StateReasons, pg.ErrorMessage = "", nil, ""
	pg.ErrorStep, pg.ErrorStepLabel, pg.ErrorDetails, pg.FailureDiagnostics = "", "", nil, nil
}

func (op *operation) succeed(result any) {
	b, err := json.Marshal(result)
	if err != nil {
		panic("localapi: encode result: " + err.Error())
	}
	op.Result = b
}

func (op *operation) fail(code, message string, details map[string]any) {
	op.Error = &opError{Code: code, Message: message, Details: details}
}

// getAsyncRequest serves both /api/async_requests/{id} and the alt URL.
func (s *Server) getAsyncRequest(rc *reqCtx) (*reply, error) {
	op := rc.st.Ops[rc.param(0)]
	if op == nil {
		return nil, notFound("async request " + rc.param(0))
	}
	status := op.status(rc.now)
	if s.cfg.LegacyAsync {
		return jsonReply(http.StatusOK, legacyStatusBody(op, status)), nil
	}
	body := map[string]any{"request_id": op.ID, "status": status}
	switch status {
	case "success":
		body["result"] = op.Result
	case "error":
		body["code"], body["message"], body["details"] = op.Error.Code, op.Error.Message, op.Error.Details
	}
	return jsonReply(http.StatusOK, body), nil
}

// legacyStatusBody is the older shape: result fields at the top level, and
// error, error_code, error_status, error_details for failures.
func legacyStatusBody(op *operation, status string) map[string]any {
	body := map[string]any{}
	if status == "success" {
		var fields map[string]any
		if json.Unmarshal(op.Result, &fields) == nil {
			for k, v := range fields {
				body[k] = v
			}
		}
	}
	if status == "error" {
		body["error"] = op.Error.Message
		body["error_code"] = op.Error.Code
		body["error_status"] = http.StatusUnprocessableEntity
		body["error_details"] = op.Error.Details
	}
	body["request_id"], body["status"] = op.ID, status
	return body
}
