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
	RateLimit      *RateLimit
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

// ListOptions select a page of a list.
type ListOptions struct {
	Page, PerPage int
	Status, Name  string
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
	CreatedAt     *time.Time    `json:"created_at,omitempty"`
	ServiceURLs   []ServiceURL  `json:"service_urls,omitempty"`
	Services      []Service     `json:"services,omitempty"`
	BuildStatuses []BuildStatus `json:"build_statuses,omitempty"`
}

// PlaygroundStatus is a playground status body.
type PlaygroundStatus struct {
	Playground
	ErrorStep          string         `json:"error_step,omitempty"`
	ErrorStepLabel     string         `json:"error_step_label,omitempty"`
	ErrorDetails       map[string]any `json:"error_details,omitempty"`
	FailureDiagnostics any            `json:"failure_diagnostics,omitempty"`
}

type Marquee struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Host      string     `json:"host"`
	Port      int        `json:"port"`
	User      string     `json:"user"`
	Status    string     `json:"status"`
	PaidUntil *time.Time `json:"paid_until,omitempty"`
	CreatedAt *time.Time `json:"created_at,omitempty"`
	UpdatedAt *time.Time `json:"updated_at,omitempty"`
}

type ConnectionTest struct {
	OK      bool   `json:"ok"`
	Message string `json:"message"`
}

type SSHKey struct {
	PublicKey string `json:"public_key"`
}

type User struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// BreakerStatus is one breaker as `fibe breaker status` shows it.
type BreakerStatus struct {
	Resource            string    `json:"resource"`
	State               string    `json:"state"` // closed | open | half-open
	ConsecutiveFailures int       `json:"consecutive_failures"`
	OpenUntil           time.Time `json:"open_until,omitzero"`
}
