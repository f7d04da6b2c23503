package client

import (
	"encoding/json"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// RateLimit is the X-RateLimit-* of a response.
type RateLimit = reliability.RateLimit

// Response is the metadata of the final answer of a call.
type Response struct {
	StatusCode     int
	RequestID      string
	Replayed       bool
	IdempotencyKey string
	Accepted       *AsyncHandle // set when the server answered 202
	// Refreshed: the answer was replayed and the resource it returns was
	// read again after the replay (a create's; see afterReplayedCreate).
	Refreshed bool
	RateLimit *RateLimit
	// Date is the server's clock (its Date header), zero when absent:
	// fibe doctor compares it with the local one.
	Date time.Time
}

// AsyncHandle is the body of a 202.
type AsyncHandle struct {
	RequestID string `json:"request_id"`
	Status    string `json:"status"`
	StatusURL string `json:"status_url,omitempty"`
}

// AsyncStatus is one look at an async operation.
type AsyncStatus struct {
	RequestID string
	Status    string
	Result    json.RawMessage // the success result, as the synchronous call would answer
	Raw       json.RawMessage // the whole body
	Err       *Error          // when Status is "error"
}

// ListOptions select a page of a list and filter it (docs/api.md, Lists).
// Empty fields are not sent. PlayspecID and MarqueeID (an id or a name)
// apply to playgrounds only; CreatedAfter and CreatedBefore are ISO 8601;
// Sort is a column and a direction: "name_asc", "created_at_desc".
type ListOptions struct {
	Page, PerPage int
	Status, Name  string
	Q             string // name contains
	PlayspecID    string
	MarqueeID     string
	CreatedAfter  string
	CreatedBefore string
	Sort          string
	// Filters are a resource's own filters by query parameter
	// ("playspec_id": "web"), as its description names them.
	Filters map[string]string
}

// ListMeta is the "meta" of a list envelope.
type ListMeta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total"`
}

type ServiceURL struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Status string `json:"status,omitempty"`
}

type Service struct {
	Name     string `json:"name"`
	Status   string `json:"status,omitempty"`
	Health   string `json:"health,omitempty"`
	Running  bool   `json:"running"`
	ExitCode *int   `json:"exit_code,omitempty"`
}

type BuildStatus struct {
	Service string `json:"service"`
	Status  string `json:"status"`
	Error   string `json:"error,omitempty"`
}

type Playground struct {
	ID            int64         `json:"id"`
	Name          string        `json:"name"`
	Status        string        `json:"status"`
	MarqueeID     int64         `json:"marquee_id"`
	MarqueeName   string        `json:"marquee_name"`
	PlayspecID    int64         `json:"playspec_id"`
	PlayspecName  string        `json:"playspec_name"`
	StateReason   string        `json:"state_reason,omitempty"`
	StateReasons  []string      `json:"state_reasons,omitempty"`
	ErrorMessage  string        `json:"error_message,omitempty"`
	ExpiresAt     *time.Time    `json:"expires_at,omitempty"`
	TimeRemaining *float64      `json:"time_remaining,omitempty"` // seconds until expires_at
	Maintenance   bool          `json:"maintenance_enabled"`
	CreatedAt     *time.Time    `json:"created_at,omitempty"`
	ServiceURLs   []ServiceURL  `json:"service_urls,omitempty"`
	Services      []Service     `json:"services,omitempty"`
	BuildStatuses []BuildStatus `json:"build_statuses,omitempty"`
	// JobMode: a job playground (a trick), which runs to completed;
	// ResultStatus and JobResult say how its job ended (tricks.go).
	JobMode      bool       `json:"job_mode,omitempty"`
	ResultStatus string     `json:"result_status,omitempty"`
	JobResult    *JobResult `json:"job_result,omitempty"`
}

// PlaygroundStatus is a playground status body.
type PlaygroundStatus struct {
	Playground
	ErrorStep          string         `json:"error_step,omitempty"`
	ErrorStepLabel     string         `json:"error_step_label,omitempty"`
	ErrorDetails       map[string]any `json:"error_details,omitempty"`
	FailureDiagnostics any            `json:"failure_diagnostics,omitempty"`
}

// Marquee is a marquee as the platform shows it. Status is active or
// disabled; BillingRuntimeActive says whether it is paid for today (nil
// from a server that does not say). The write-only secrets never come back.
type Marquee struct {
	ID                   int64      `json:"id"`
	Name                 string     `json:"name"`
	Host                 string     `json:"host"`
	Port                 int        `json:"port"`
	User                 string     `json:"user"`
	Status               string     `json:"status"`
	DomainsInput         string     `json:"domains_input,omitempty"`
	HTTPSEnabled         bool       `json:"https_enabled,omitempty"`
	TLSCertificateSource string     `json:"tls_certificate_source,omitempty"`
	ACMEEmail            string     `json:"acme_email,omitempty"`
	DockerhubAuthEnabled bool       `json:"dockerhub_auth_enabled,omitempty"`
	BuildPlatform        string     `json:"build_platform,omitempty"`
	PropID               *int64     `json:"prop_id,omitempty"`
	PaidUntil            *time.Time `json:"paid_until,omitempty"`
	BillingRuntimeActive *bool      `json:"billing_runtime_active,omitempty"`
	CreatedAt            *time.Time `json:"created_at,omitempty"`
	UpdatedAt            *time.Time `json:"updated_at,omitempty"`

	// BillingRequestedUntil: a billing request pending until then (nil:
	// none); ChatLaunchable: chat agents can be launched on it.
	BillingRequestedUntil *time.Time `json:"billing_requested_until,omitempty"`
	ChatLaunchable        *bool      `json:"chat_launchable,omitempty"`
}

// ConnectionTest is the result of a marquee connection test:
// {"success", "message", "error"} on the wire. OK is read from "success"
// (or, from older servers, "ok").
type ConnectionTest struct {
	OK      bool   `json:"success"`
	Message string `json:"message,omitempty"`
	Error   string `json:"error,omitempty"`
}

func (ct *ConnectionTest) UnmarshalJSON(b []byte) error {
	var w struct {
		Success *bool           `json:"success"`
		OK      *bool           `json:"ok"`
		Message string          `json:"message"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*ct = ConnectionTest{Message: w.Message}
	switch {
	case w.Success != nil:
		ct.OK = *w.Success
	case w.OK != nil:
		ct.OK = *w.OK
	}
	// error is a string, or an object with a message.
	var s string
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(w.Error, &s) == nil {
		ct.Error = s
	} else if json.Unmarshal(w.Error, &obj) == nil {
		ct.Error = obj.Message
	}
	return nil
}

// Extension is the answer of an extend: the new expiry and the seconds left.
type Extension struct {
	ID            int64      `json:"id"`
	ExpiresAt     *time.Time `json:"expires_at,omitempty"`
	TimeRemaining *float64   `json:"time_remaining,omitempty"`
}

// Playspec is a template of playgrounds: a compose file and what the
// platform adds to it. Lists carry the summary; a get, a create and an
// update add the detail (the compose, services, mounted files, registry
// credentials and configs).
type Playspec struct {
	ID                      int64      `json:"id"`
	Name                    string     `json:"name"`
	Description             string     `json:"description,omitempty"`
	Locked                  bool       `json:"locked"`
	PersistVolumes          bool       `json:"persist_volumes"`
	JobMode                 bool       `json:"job_mode"`
	PlaygroundCount         int        `json:"playground_count"`
	TriggerEnabled          bool       `json:"trigger_enabled"`
	MutiMode                bool       `json:"muti_mode"`
	SourceTemplateVersionID *int64     `json:"source_template_version_id,omitempty"`
	CreatedAt               *time.Time `json:"created_at,omitempty"`
	UpdatedAt               *time.Time `json:"updated_at,omitempty"`

	BaseComposeYAML string               `json:"base_compose_yaml,omitempty"`
	Services        []PlayspecService    `json:"services,omitempty"`
	MountedFiles    []MountedFile        `json:"mounted_files,omitempty"`
	Credentials     []RegistryCredential `json:"credentials,omitempty"`
	TriggerConfig   map[string]any       `json:"trigger_config,omitempty"`
	MutiConfig      map[string]any       `json:"muti_config,omitempty"`
	ScheduleConfig  map[string]any       `json:"schedule_config,omitempty"`
}

// PlayspecService is one service of a playspec, read from its compose and
// its service definition.
type PlayspecService struct {
	Name       string `json:"name"`
	Type       string `json:"type,omitempty"` // static or dynamic
	Image      string `json:"image,omitempty"`
	Public     bool   `json:"public,omitempty"` // exposed with a service URL
	Port       int    `json:"port,omitempty"`
	Visibility string `json:"visibility,omitempty"`
	JobWatch   bool   `json:"job_watch,omitempty"`
}

// MountedFile is a file mounted into a playspec's services.
type MountedFile struct {
	Filename       string   `json:"filename"`
	ByteSize       int64    `json:"byte_size"`
	ContentType    string   `json:"content_type,omitempty"`
	MountPath      string   `json:"mount_path,omitempty"`
	ReadOnly       bool     `json:"readonly"`
	TargetServices []string `json:"target_services,omitempty"`
}

// RegistryCredential lets a playspec's images be pulled from a private
// registry; its secret is never shown back. The platform sends the id as
// a string or a number.
type RegistryCredential struct {
	ID           FlexID `json:"id"`
	RegistryType string `json:"registry_type"`
	RegistryURL  string `json:"registry_url"`
	Username     string `json:"username"`
}

// ComposeValidation is the server's verdict on a compose.
type ComposeValidation struct {
	Valid    bool              `json:"valid"`
	Services []PlayspecService `json:"services,omitempty"`
	Errors   []string          `json:"errors,omitempty"`
	Warnings []string          `json:"warnings,omitempty"`
}

type SSHKey struct {
	PublicKey string `json:"public_key"`
}

// User is GET /api/me: who the key belongs to and what it may do.
type User struct {
	ID           int64    `json:"id"`
	Username     string   `json:"username,omitempty"`
	Email        string   `json:"email"`
	Name         string   `json:"name,omitempty"` // older servers
	AvatarURL    *string  `json:"avatar_url"`     // null when the player has none, but always present
	APIKeyScopes []string `json:"api_key_scopes"`
}

// BreakerStatus is one breaker as `fibe breaker status` shows it.
type BreakerStatus struct {
	Resource            string    `json:"resource"`
	State               string    `json:"state"` // closed | open | half-open
	ConsecutiveFailures int       `json:"consecutive_failures"`
	OpenUntil           time.Time `json:"open_until,omitzero"`
}
