package localapi

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"net"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Playground and marquee extras (docs/api.md, "Playgrounds" and
// "Marquees"): a playground's rendered compose file, its environment with
// the platform's own variables marked, its diagnostics (a GET that answers
// 202 when asked to refresh), and marquee autoconnect tokens.

// opDebug is a refreshed debug read (an operation).
const opDebug = "debug"

func init() { opFinishers[opDebug] = finishDebug }

func (s *Server) extraRoutes(rt *router) {
	rt.add("GET", "/api/playgrounds/{id}/compose", "playgrounds:read", s.playgroundCompose)
	rt.add("GET", "/api/playgrounds/{id}/env_metadata", "playgrounds:read", s.playgroundEnvMetadata)
	rt.add("GET", "/api/playgrounds/{id}/debug", "playgrounds:read", s.playgroundDebug)
	rt.add("POST", "/api/autoconnect_tokens", "marquees:write", s.createAutoconnectToken)
}

// playgroundExtras are the detail fields of a playground beyond the core
// ones: where it is served and how much of its lifetime is used.
type playgroundExtras struct {
	ComposeProject       string         `json:"compose_project"`
	RootDomain           string         `json:"root_domain"`
	RoutingScheme        string         `json:"routing_scheme"`
	ExpirationPercentage float64        `json:"expiration_percentage"` // of its lifetime used, 0–100
	NeedsRecreation      bool           `json:"needs_recreation"`
	BuildWarnings        []string       `json:"build_warnings"`
	ServiceBranches      map[string]any `json:"service_branches"`
}

func playgroundExtrasOf(pg *playground, host string, now time.Time) playgroundExtras {
	x := playgroundExtras{ComposeProject: composeProject(pg), RootDomain: pg.Name + "." + host, RoutingScheme: "subdomain",
		BuildWarnings: []string{}, ServiceBranches: map[string]any{}}
	if life := pg.ExpiresAt.Sub(pg.CreatedAt); life > 0 {
		used := float64(now.Sub(pg.CreatedAt)) / float64(life) * 100
		x.ExpirationPercentage = math.Round(min(max(used, 0), 100)*10) / 10
	}
	return x
}

// marqueeExtras: no billing request is ever pending in the emulator; a
// marquee launches chat agents when it is active and paid for.
type marqueeExtras struct {
	BillingRequestedUntil *time.Time `json:"billing_requested_until"`
	ChatLaunchable        bool       `json:"chat_launchable"`
}

func marqueeExtrasOf(m *marquee, now time.Time) marqueeExtras {
	return marqueeExtras{ChatLaunchable: m.status() == "active" && m.funded(now)}
}

// composeProject is the compose project a playground's containers run
// under.
func composeProject(pg *playground) string { return "fibe-pg-" + strconv.FormatInt(pg.ID, 10) }

// rendered reports whether the platform has rendered the playground's
// compose file: a playground still being created has none yet.
func rendered(pg *playground) bool { return pg.Status != "creating" }

func (s *Server) playgroundCompose(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	out := map[string]any{"compose_yaml": "", "compose_project": composeProject(pg)}
	if rendered(pg) {
		out["compose_yaml"] = rc.st.renderCompose(pg, rc.now)
	}
	return jsonReply(http.StatusOK, out), nil
}

// playgroundServices are pg's services (its playspec's) as its view
// shows them, and whether each is exposed. The extras read a playspec only
// through the playground's view, so they do not depend on how playspecs
// are kept.
func (st *state) playgroundServices(pg *playground, now time.Time) (playspecName string, services []serviceView, exposed map[string]bool) {
	v := st.playgroundView(pg, now)
	exposed = map[string]bool{}
	for _, u := range v.ServiceURLs {
		exposed[u.Name] = true
	}
	return v.PlayspecName, v.Services, exposed
}

// renderedCompose is the rendered compose file: its keys in the order a
// person writes them.
type renderedCompose struct {
	Name     string                     `yaml:"name"`
	Services map[string]renderedService `yaml:"services"`
}

type renderedService struct {
	Image       string            `yaml:"image"`
	Restart     string            `yaml:"restart"`
	Environment map[string]string `yaml:"environment,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
}

// renderCompose renders the compose file of pg from its playspec's
// services and its environment.
func (st *state) renderCompose(pg *playground, now time.Time) string {
	f := renderedCompose{Name: composeProject(pg), Services: map[string]renderedService{}}
	env := st.playgroundEnv(pg)
	spec, services, exposed := st.playgroundServices(pg, now)
	for _, svc := range services {
		rs := renderedService{
			Image:       "registry.fibe.test/" + spec + "/" + svc.Name + ":latest",
			Restart:     "unless-stopped",
			Environment: env.merged,
			Labels:      map[string]string{"fibe.gg/playground": pg.Name, "fibe.gg/service": svc.Name},
		}
		if exposed[svc.Name] {
			rs.Labels["fibe.gg/expose"] = "true"
		}
		f.Services[svc.Name] = rs
	}
	out, err := yaml.Marshal(f)
	if err != nil {
		panic("localapi: encode compose: " + err.Error())
	}
	return string(out)
}

// logTail is the last tail log lines before at, of one service or across
// all, as a log snapshot shows them (logMessage).
func logTail(services []serviceView, service string, tail int, at time.Time) []string {
	names := []string{}
	for _, s := range services {
		if service == "" || s.Name == service {
			names = append(names, s.Name)
		}
	}
	lines := []string{}
	if len(names) == 0 {
		return lines
	}
	for i := tail; i >= 1; i-- {
		svc := names[i%len(names)]
		ts := at.Add(-time.Duration(i) * 250 * time.Millisecond).UTC().Format(time.RFC3339Nano)
		lines = append(lines, ts+" "+svc+" | "+logMessage(svc, i))
	}
	return lines
}

// playgroundEnvironment is the environment a playground's services get:
// the platform's variables, which overrides cannot change, and the
// playground's overrides.
type playgroundEnvironment struct {
	merged   map[string]string
	metadata map[string]any
	system   []string
}

func (st *state) playgroundEnv(pg *playground) playgroundEnvironment {
	host := "fibe.test"
	if m := st.marqueeByID(pg.MarqueeID); m != nil {
		host = m.Host
	}
	system := map[string]string{
		"FIBE_PLAYGROUND":    pg.Name,
		"FIBE_PLAYGROUND_ID": strconv.FormatInt(pg.ID, 10),
		"FIBE_ROOT_DOMAIN":   pg.Name + "." + host,
		"COMPOSE_PROJECT":    composeProject(pg),
	}
	e := playgroundEnvironment{merged: map[string]string{}, metadata: map[string]any{}, system: []string{}}
	for k, v := range pg.EnvOverrides {
		if _, isSystem := system[k]; isSystem {
			continue
		}
		e.merged[k] = v
		e.metadata[k] = map[string]any{"source": "override", "system": false}
	}
	for k, v := range system {
		e.merged[k] = v
		e.metadata[k] = map[string]any{"source": "system", "system": true}
		e.system = append(e.system, k)
	}
	sort.Strings(e.system)
	return e
}

func (s *Server) playgroundEnvMetadata(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	env := rc.st.playgroundEnv(pg)
	return jsonReply(http.StatusOK, map[string]any{
		"merged": env.merged, "metadata": env.metadata, "system_keys": env.system,
	}), nil
}

// Debug query bounds.
const (
	defaultDebugTail = 20
	maxDebugTail     = 1000
)

var debugModes = []string{"summary", "full"}

// debugQuery is a debug request's validated query.
type debugQuery struct {
	mode, service string
	tail          int
	refresh       bool
}

func (rc *reqCtx) debugQuery(pg *playground) (debugQuery, error) {
	q := rc.c.query
	d := debugQuery{mode: "summary", tail: defaultDebugTail, service: q.Get("service")}
	if v := q.Get("mode"); v != "" {
		if !slices.Contains(debugModes, v) {
			return d, invalid("mode", "is not included in the list ("+strings.Join(debugModes, ", ")+")")
		}
		d.mode = v
	}
	if v := q.Get("logs_tail"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxDebugTail {
			return d, invalid("logs_tail", "must be an integer between 1 and "+strconv.Itoa(maxDebugTail))
		}
		d.tail = n
	}
	if v := q.Get("refresh"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return d, invalid("refresh", "must be true or false")
		}
		d.refresh = b
	}
	if d.service != "" {
		_, services, _ := rc.st.playgroundServices(pg, rc.now)
		names := make([]string, len(services))
		for i, s := range services {
			names[i] = s.Name
		}
		if !slices.Contains(names, d.service) {
			return d, invalid("service", "is not a service of this playground ("+strings.Join(names, ", ")+")")
		}
	}
	return d, nil
}

func (s *Server) playgroundDebug(rc *reqCtx) (*reply, error) {
	pg, err := rc.pathPlayground()
	if err != nil {
		return nil, err
	}
	d, err := rc.debugQuery(pg)
	if err != nil {
		return nil, err
	}
	if !d.refresh {
		return jsonReply(http.StatusOK, rc.st.debugReport(pg, d, rc.now)), nil
	}
	op := rc.newOp(opDebug, refreshTime)
	op.PlaygroundID, op.MarqueeID, op.Service, op.Tail = pg.ID, pg.MarqueeID, d.service, d.tail
	op.Params = map[string]string{"mode": d.mode}
	return rc.accepted(op), nil
}

// finishDebug answers a refreshed debug read with the diagnostics as of
// its end.
func finishDebug(st *state, op *operation) {
	pg := st.playgroundByID(op.PlaygroundID)
	if pg == nil {
		op.fail(codeNotFound, "the playground was deleted", map[string]any{"playground_id": op.PlaygroundID})
		return
	}
	op.succeed(st.debugReport(pg, debugQuery{mode: op.Params["mode"], service: op.Service, tail: op.Tail, refresh: true}, op.DoneAt))
}

// debugReport is a playground's diagnostics as of at: the playground, its
// startup, its services with a log tail each, and (mode full) its
// environment's keys and the failure detail.
func (st *state) debugReport(pg *playground, d debugQuery, at time.Time) map[string]any {
	_, views, _ := st.playgroundServices(pg, at)
	state, exit := "starting", any(nil)
	_, _, running, code := serviceState(pg.Status)
	switch {
	case running:
		state = "running"
	case code != nil:
		state, exit = "exited", *code
	}
	var missing []string
	if !rendered(pg) {
		missing = append(missing, "compose_yaml")
	}
	services := []map[string]any{}
	for _, svc := range views {
		if d.service != "" && svc.Name != d.service {
			continue
		}
		row := map[string]any{"name": svc.Name, "status": svc.Status, "health": svc.Health, "running": svc.Running, "exit_code": svc.ExitCode}
		if d.mode == "full" {
			row["log_tail"] = logTail(views, svc.Name, d.tail, at)
		}
		services = append(services, row)
	}
	tail := logTail(views, d.service, d.tail, at)
	report := map[string]any{
		"playground": map[string]any{"id": pg.ID, "name": pg.Name, "status": pg.Status},
		"mode":       d.mode,
		"refreshed":  d.refresh,
		"startup": map[string]any{
			"state": state, "exit_code": exit, "available": rendered(pg),
			"missing_artifacts": append([]string{}, missing...), "log_tail": tail,
		},
		"services":     services,
		"generated_at": at,
	}
	if d.mode == "full" {
		env := st.playgroundEnv(pg)
		keys := make([]string, 0, len(env.merged))
		for k := range env.merged {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		report["env_keys"] = keys // names only: values may be secrets
		report["compose_project"] = composeProject(pg)
		report["error"] = map[string]any{
			"message": nullable(pg.ErrorMessage), "step": nullable(pg.ErrorStep),
			"state_reasons": append([]string{}, pg.StateReasons...), "failure_diagnostics": pg.FailureDiagnostics,
		}
	}
	return report
}

// autoconnectSSLModes are the ssl_mode values an autoconnect token takes.
var autoconnectSSLModes = []string{"none", "letsencrypt", "custom"}

// createAutoconnectToken mints a token a new server uses to connect
// itself as a marquee. The body is not wrapped.
func (s *Server) createAutoconnectToken(rc *reqCtx) (*reply, error) {
	b := rc.body
	fields := map[string]string{}
	for _, f := range []string{"email", "domain", "ip", "ssl_mode", "dns_provider"} {
		v, _, err := str(b, f)
		if err != nil {
			return nil, err
		}
		fields[f] = strings.TrimSpace(v)
	}
	if e := fields["email"]; e != "" && (!strings.Contains(e, "@") || strings.ContainsAny(e, " \t")) {
		return nil, invalid("email", "is not an email address")
	}
	if d := fields["domain"]; d != "" && (strings.ContainsAny(d, " /@:") || !strings.Contains(d, ".")) {
		return nil, invalid("domain", "is not a domain name")
	}
	if ip := fields["ip"]; ip != "" && net.ParseIP(ip) == nil {
		return nil, invalid("ip", "is not an IP address")
	}
	if m := fields["ssl_mode"]; m != "" && !slices.Contains(autoconnectSSLModes, m) {
		return nil, invalid("ssl_mode", "is not included in the list ("+strings.Join(autoconnectSSLModes, ", ")+")")
	}
	if v, ok := b["dns_credentials"]; ok && v != nil {
		creds, isObj := v.(map[string]any)
		if !isObj {
			return nil, invalid("dns_credentials", "must be an object of strings")
		}
		for _, cv := range creds {
			if _, isStr := cv.(string); !isStr {
				return nil, invalid("dns_credentials", "must be an object of strings")
			}
		}
		if len(creds) > 0 && fields["dns_provider"] == "" {
			return nil, invalid("dns_provider", "can't be blank when dns_credentials are given")
		}
	}
	// The token is kept nowhere: a server that connects with it is the
	// platform's business, not the emulator's. An idempotent replay
	// answers the same token from the replay cache.
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	return jsonReply(http.StatusCreated, map[string]any{"token": hex.EncodeToString(raw)}), nil
}
