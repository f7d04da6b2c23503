package localapi

import (
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Wire shapes of the resources (docs/api.md). Empty optional fields are
// null, as the Rails API sends them.

type playgroundView struct {
	ID            int64             `json:"id"`
	Name          string            `json:"name"`
	Status        string            `json:"status"`
	MarqueeID     int64             `json:"marquee_id"`
	MarqueeName   string            `json:"marquee_name"`
	PlayspecID    int64             `json:"playspec_id"`
	PlayspecName  string            `json:"playspec_name"`
	StateReason   *string           `json:"state_reason"`
	StateReasons  []string          `json:"state_reasons"`
	ErrorMessage  *string           `json:"error_message"`
	Maintenance   bool              `json:"maintenance_enabled"`
	EnvOverrides  map[string]string `json:"env_overrides"`
	ExpiresAt     time.Time         `json:"expires_at"`
	TimeRemaining int64             `json:"time_remaining"` // seconds until expires_at, 0 once past
	CreatedAt     time.Time         `json:"created_at"`
	UpdatedAt     time.Time         `json:"updated_at"`
	ServiceURLs   []serviceURLView  `json:"service_urls"`
	Services      []serviceView     `json:"services"`
	BuildStatuses []buildStatus     `json:"build_statuses"`
	jobView                         // job_mode, result_status, job_result (tricks.go)

	playgroundExtras // the detail of docs/api.md "Playgrounds" (extras.go)
}

// playgroundStatusView is the status body: a playground plus failure detail.
type playgroundStatusView struct {
	playgroundView
	ErrorStep          *string        `json:"error_step"`
	ErrorStepLabel     *string        `json:"error_step_label"`
	ErrorDetails       map[string]any `json:"error_details"`
	FailureDiagnostics map[string]any `json:"failure_diagnostics"`
}

type serviceURLView struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Status string `json:"status"`
}

type serviceView struct {
	Name     string `json:"name"`
	Status   string `json:"status"`
	Health   string `json:"health"`
	Running  bool   `json:"running"`
	ExitCode *int   `json:"exit_code"`
}

type buildStatus struct {
	Service string  `json:"service"`
	Status  string  `json:"status"`
	Error   *string `json:"error"`
}

// marqueeView carries every field of docs/api.md; the write-only secrets
// (SSH private key, TLS private key, Docker Hub token) have no field here,
// only whether one is set.
type marqueeView struct {
	ID                   int64     `json:"id"`
	Name                 string    `json:"name"`
	Host                 string    `json:"host"`
	Port                 int       `json:"port"`
	User                 string    `json:"user"`
	Status               string    `json:"status"`
	DomainsInput         *string   `json:"domains_input"`
	HTTPSEnabled         bool      `json:"https_enabled"`
	TLSCertificateSource *string   `json:"tls_certificate_source"`
	ACMEEmail            *string   `json:"acme_email"`
	DockerhubAuthEnabled bool      `json:"dockerhub_auth_enabled"`
	DockerhubUsername    *string   `json:"dockerhub_username"`
	BuildPlatform        *string   `json:"build_platform"`
	PropID               *int64    `json:"prop_id"`
	SSHKeyConfigured     bool      `json:"ssh_key_configured"`
	PaidUntil            time.Time `json:"paid_until"`
	BillingRuntimeActive bool      `json:"billing_runtime_active"`
	CreatedAt            time.Time `json:"created_at"`
	UpdatedAt            time.Time `json:"updated_at"`

	marqueeExtras // billing request and chat launches (extras.go)
}

type listMeta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total"`
}

type listBody[T any] struct {
	Data []T      `json:"data"`
	Meta listMeta `json:"meta"`
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// playgroundView shows pg as of now (time_remaining depends on it).
func (st *state) playgroundView(pg *playground, now time.Time) playgroundView {
	ps := st.playspecByID(pg.PlayspecID)
	v := playgroundView{
		ID: pg.ID, Name: pg.Name, Status: pg.Status, MarqueeID: pg.MarqueeID, PlayspecID: pg.PlayspecID,
		StateReason: nullable(pg.StateReason), StateReasons: append([]string{}, pg.StateReasons...),
		ErrorMessage: nullable(pg.ErrorMessage), Maintenance: pg.Maintenance,
		EnvOverrides: pg.EnvOverrides, ExpiresAt: pg.ExpiresAt, TimeRemaining: timeRemaining(pg.ExpiresAt, now),
		CreatedAt: pg.CreatedAt, UpdatedAt: pg.UpdatedAt,
		ServiceURLs: []serviceURLView{}, Services: []serviceView{},
		BuildStatuses: append([]buildStatus{}, pg.BuildStatuses...),
		jobView:       st.jobViewOf(pg),
	}
	if v.EnvOverrides == nil {
		v.EnvOverrides = map[string]string{}
	}
	host := "fibe.test"
	if m := st.marqueeByID(pg.MarqueeID); m != nil {
		v.MarqueeName, host = m.Name, m.Host
	}
	v.playgroundExtras = playgroundExtrasOf(pg, host, now)
	if ps == nil {
		return v
	}
	v.PlayspecName = ps.Name
	svcStatus, health, running, exit := serviceState(pg.Status)
	for _, sp := range ps.Services {
		v.Services = append(v.Services, serviceView{Name: sp.Name, Status: svcStatus, Health: health, Running: running, ExitCode: exit})
		if sp.Public {
			urlStatus := "down"
			if running {
				urlStatus = "up"
			}
			v.ServiceURLs = append(v.ServiceURLs, serviceURLView{
				Name: sp.Name, URL: "https://" + sp.Name + "--" + pg.Name + "." + host, Status: urlStatus,
			})
		}
	}
	st.jobExitCodes(pg, v.Services)
	return v
}

// serviceState derives the containers' state from the playground's.
func serviceState(status string) (svc, health string, running bool, exit *int) {
	code := func(n int) *int { return &n }
	switch status {
	case "running":
		return "running", "healthy", true, nil
	case "stopped", "stopping":
		return "exited", "none", false, code(0)
	case "error", "failed":
		return "exited", "unhealthy", false, code(1)
	case "completed":
		return "exited", "none", false, code(0)
	default:
		return "starting", "starting", false, nil
	}
}

// timeRemaining is whole seconds from now until expires, never negative.
func timeRemaining(expires, now time.Time) int64 {
	return max(0, int64(expires.Sub(now)/time.Second))
}

func (st *state) playgroundStatusView(pg *playground, now time.Time) playgroundStatusView {
	return playgroundStatusView{
		playgroundView: st.playgroundView(pg, now),
		ErrorStep:      nullable(pg.ErrorStep), ErrorStepLabel: nullable(pg.ErrorStepLabel),
		ErrorDetails: pg.ErrorDetails, FailureDiagnostics: pg.FailureDiagnostics,
	}
}

// marqueeViewOf shows m as of now: billing_runtime_active says whether it
// is paid for today, independently of its status (active or disabled).
func marqueeViewOf(m *marquee, now time.Time) marqueeView {
	return marqueeView{
		ID: m.ID, Name: m.Name, Host: m.Host, Port: m.Port, User: m.User, Status: m.status(),
		DomainsInput: nullable(m.DomainsInput), HTTPSEnabled: m.HTTPSEnabled,
		TLSCertificateSource: nullable(m.TLSCertificateSource), ACMEEmail: nullable(m.ACMEEmail),
		DockerhubAuthEnabled: m.DockerhubAuthEnabled, DockerhubUsername: nullable(m.DockerhubUsername),
		BuildPlatform: nullable(m.BuildPlatform), PropID: m.PropID,
		SSHKeyConfigured: m.HasSSHKey, PaidUntil: m.PaidUntil, BillingRuntimeActive: m.funded(now),
		CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt,
		marqueeExtras: marqueeExtrasOf(m, now),
	}
}

// pageParams reads page and per_page (defaults 1 and 25, per_page at most 100).
func pageParams(q url.Values) (page, perPage int, err error) {
	page, perPage = 1, 25
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, badRequest("page must be a positive integer")
		}
		page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, badRequest("per_page must be a positive integer")
		}
		perPage = min(n, 100)
	}
	return page, perPage, nil
}

// paginate answers one page of items in the list envelope.
func paginate[T any](items []T, page, perPage int) *reply {
	total := len(items)
	from := total
	if page-1 <= total/perPage { // guards the product against overflow
		from = min((page-1)*perPage, total)
	}
	to := min(from+perPage, total)
	data := append([]T{}, items[from:to]...)
	return jsonReply(http.StatusOK, listBody[T]{Data: data, Meta: listMeta{Page: page, PerPage: perPage, Total: total}})
}
