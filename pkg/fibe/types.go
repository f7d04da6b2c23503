package fibe

import "time"

// Playground is a running environment of a playspec on a marquee.
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
	TimeRemaining *float64      `json:"time_remaining,omitempty"` // seconds until ExpiresAt
	Maintenance   bool          `json:"maintenance_enabled"`
	CreatedAt     *time.Time    `json:"created_at,omitempty"`
	ServiceURLs   []ServiceURL  `json:"service_urls,omitempty"`
	Services      []Service     `json:"services,omitempty"`
	BuildStatuses []BuildStatus `json:"build_statuses,omitempty"`
	// JobMode marks a trick (a job playground); ResultStatus and JobResult
	// say how its job ended (see TrickOutcome).
	JobMode      bool       `json:"job_mode,omitempty"`
	ResultStatus string     `json:"result_status,omitempty"`
	JobResult    *JobResult `json:"job_result,omitempty"`
}

// JobResult is how a trick's job ended: one row per service, the watched
// ones deciding success.
type JobResult struct {
	ID             *int64            `json:"id,omitempty"`
	Success        *bool             `json:"success"`
	CompletedAt    *time.Time        `json:"completed_at"`
	ServiceResults map[string]any    `json:"service_results,omitempty"`
	Summary        *JobResultSummary `json:"summary,omitempty"`
}

// JobResultSummary counts a job's services and names those that failed
// and succeeded.
type JobResultSummary struct {
	ServicesTotal int             `json:"services_total"`
	WatchedTotal  int             `json:"watched_total"`
	Failed        []string        `json:"failed"`
	Succeeded     []string        `json:"succeeded"`
	Rows          []JobServiceRow `json:"rows"`
}

// JobServiceRow is how one service of a job ended.
type JobServiceRow struct {
	Name              string `json:"name"`
	Watched           bool   `json:"watched"`
	Status            string `json:"status,omitempty"`
	ExitCode          *int   `json:"exit_code,omitempty"`
	Result            string `json:"result,omitempty"`
	FinishedAt        string `json:"finished_at,omitempty"`
	LogLines          int    `json:"log_lines,omitempty"`
	LogBytes          int    `json:"log_bytes,omitempty"`
	StructuredSummary any    `json:"structured_summary,omitempty"`
}

// Agent is an AI agent's configuration . The
// effective_* fields are what the platform applies once the agent's own
// values and the account's defaults are merged.
type Agent struct {
	ID                        int64               `json:"id"`
	Name                      string              `json:"name"`
	Description               *string             `json:"description"`
	Provider                  string              `json:"provider"`
	ProviderLabel             string              `json:"provider_label"`
	Status                    string              `json:"status"`
	Authenticated             bool                `json:"authenticated"`
	SyncEnabled               bool                `json:"sync_enabled"`
	SyscheckEnabled           bool                `json:"syscheck_enabled"`
	BuildInPublic             bool                `json:"build_in_public"`
	BuildInPublicPlaygroundID *int64              `json:"build_in_public_playground_id"`
	ProviderAPIKeyMode        bool                `json:"provider_api_key_mode"`
	Mode                      string              `json:"mode,omitempty"`
	APIKeyID                  *int64              `json:"api_key_id"`
	ModelOptions              *string             `json:"model_options"`
	MemoryLimit               *string             `json:"memory_limit"`
	CPULimit                  *string             `json:"cpu_limit"`
	Settings                  map[string]any      `json:"settings,omitempty"`
	Prompt                    *string             `json:"prompt"`
	SystemPrompt              *string             `json:"system_prompt"`
	SystemPromptMode          string              `json:"system_prompt_mode,omitempty"`
	MainMD                    *string             `json:"main_md"`
	MainMDMode                string              `json:"main_md_mode,omitempty"`
	MCPJSON                   *string             `json:"mcp_json"`
	PostInitScript            *string             `json:"post_init_script"`
	CustomEnv                 *string             `json:"custom_env"`
	CLIVersion                *string             `json:"cli_version"`
	ProviderArgs              map[string]any      `json:"provider_args,omitempty"`
	SkillToggles              map[string]any      `json:"skill_toggles,omitempty"`
	EffectivePrompt           *string             `json:"effective_prompt"`
	EffectiveMainMD           *string             `json:"effective_main_md"`
	EffectiveModelOptions     *string             `json:"effective_model_options"`
	EffectiveMemoryLimit      *string             `json:"effective_memory_limit"`
	EffectiveCPULimit         *string             `json:"effective_cpu_limit"`
	EffectivePostInitScript   *string             `json:"effective_post_init_script"`
	EffectiveCLIVersion       *string             `json:"effective_cli_version"`
	EffectiveProviderArgs     map[string]any      `json:"effective_provider_args,omitempty"`
	EffectiveSkillToggles     map[string]any      `json:"effective_skill_toggles,omitempty"`
	MountedFiles              []AgentMountedFile  `json:"mounted_files,omitempty"`
	RuntimeStatus             *AgentRuntimeStatus `json:"runtime_status,omitempty"`
	CreatedAt                 *time.Time          `json:"created_at,omitempty"`
	UpdatedAt                 *time.Time          `json:"updated_at,omitempty"`
}

// AgentMountedFile is a file mounted into an agent's services.
type AgentMountedFile struct {
	Name           string   `json:"name"`
	Path           string   `json:"path,omitempty"`
	ContentType    string   `json:"content_type,omitempty"`
	TargetServices []string `json:"target_services,omitempty"`
	ReadOnly       bool     `json:"readonly"`
}

// AgentRuntimeStatus is where an agent's chat runtime is: stopped for an
// agent that never ran, running and reachable once a chat is up.
type AgentRuntimeStatus struct {
	ID               int64   `json:"id"`
	Status           string  `json:"status"`
	ChatURL          *string `json:"chat_url"`
	Subdomain        string  `json:"subdomain"`
	ComposeProject   string  `json:"compose_project"`
	RuntimeReachable bool    `json:"runtime_reachable"`
	Authenticated    bool    `json:"authenticated"`
	IsProcessing     bool    `json:"is_processing"`
	QueueCount       int     `json:"queue_count"`
	LastError        *string `json:"last_error"`
}

// PlaygroundStatus is a playground's status: the playground and, after a
// failure, the failed step, its details and diagnostics.
type PlaygroundStatus struct {
	Playground
	ErrorStep          string         `json:"error_step,omitempty"`
	ErrorStepLabel     string         `json:"error_step_label,omitempty"`
	ErrorDetails       map[string]any `json:"error_details,omitempty"`
	FailureDiagnostics any            `json:"failure_diagnostics,omitempty"`
}

// Service is one service (container) of a playground.
type Service struct {
	Name     string `json:"name"`
	Status   string `json:"status,omitempty"`
	Health   string `json:"health,omitempty"`
	Running  bool   `json:"running"`
	ExitCode *int   `json:"exit_code,omitempty"`
}

// ServiceURL is where a service of a playground answers.
type ServiceURL struct {
	Name   string `json:"name"`
	URL    string `json:"url"`
	Status string `json:"status,omitempty"`
}

// BuildStatus is the build of one service.
type BuildStatus struct {
	Service string `json:"service"`
	Status  string `json:"status"`
	Error   string `json:"error,omitempty"`
}

// Extension is the answer of an extend: the new expiry and the seconds left.
type Extension struct {
	ID            int64      `json:"id"`
	ExpiresAt     *time.Time `json:"expires_at,omitempty"`
	TimeRemaining *float64   `json:"time_remaining,omitempty"`
}

// Marquee is a host playgrounds run on. Status is active or disabled;
// BillingRuntimeActive says whether it is paid for today. The write-only
// secrets (the SSH private key) never come back.
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

// ConnectionTest is the result of a marquee's connection test.
type ConnectionTest struct {
	OK      bool   `json:"success"`
	Message string `json:"message,omitempty"`
	Error   string `json:"error,omitempty"`
}

// SSHKey is a marquee's generated SSH public key.
type SSHKey struct {
	PublicKey string `json:"public_key"`
}

// Playspec is a template of playgrounds: a compose file and what the
// platform adds to it. Lists carry the summary; Get, Create and Update
// add the detail (BaseComposeYAML, Services, MountedFiles, Credentials and
// the configs).
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
	Services        []ServiceSpec        `json:"services,omitempty"`
	MountedFiles    []MountedFile        `json:"mounted_files,omitempty"`
	Credentials     []RegistryCredential `json:"credentials,omitempty"`
	TriggerConfig   map[string]any       `json:"trigger_config,omitempty"`
	MutiConfig      map[string]any       `json:"muti_config,omitempty"`
	ScheduleConfig  map[string]any       `json:"schedule_config,omitempty"`
}

// ServiceSpec is one service of a playspec, read from its compose and its
// service definition.
type ServiceSpec struct {
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
// registry; its secret is never shown back. ID is text whether the
// platform sends a string or a number.
type RegistryCredential struct {
	ID           string `json:"id"`
	RegistryType string `json:"registry_type"`
	RegistryURL  string `json:"registry_url"`
	Username     string `json:"username"`
}

// ComposeValidation is the platform's verdict on a compose: Valid, the
// services it found, and its errors and warnings.
type ComposeValidation struct {
	Valid    bool          `json:"valid"`
	Services []ServiceSpec `json:"services,omitempty"`
	Errors   []string      `json:"errors,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
}

// User is who the API key belongs to and what it may do.
type User struct {
	ID           int64    `json:"id"`
	Username     string   `json:"username,omitempty"`
	Email        string   `json:"email"`
	Name         string   `json:"name,omitempty"`
	AvatarURL    *string  `json:"avatar_url"`
	APIKeyScopes []string `json:"api_key_scopes"`
}

// ListOptions select a page of a list and filter it. Zero fields are not
// sent. Search and Name match substrings; Sort is a column and a
// direction ("name_asc", "created_at_desc", the default); an unknown one
// is an *Error with code INVALID_SORT.
type ListOptions struct {
	Page, PerPage               int
	Search, Name, Status        string
	CreatedAfter, CreatedBefore time.Time
	Sort                        string
}

// PlaygroundListOptions are ListOptions plus the playgrounds' own filters:
// a playspec's or a marquee's id or name.
type PlaygroundListOptions struct {
	ListOptions
	Playspec, Marquee string
}

// LogsOptions select a logs snapshot: one service ("" → every one), the
// last Tail lines (0 → the server's default).
type LogsOptions struct {
	Service string
	Tail    int
}

// FollowOptions shape a followed log: one service ("" → every one), the
// last Tail lines first, or every line after Since (which wins over Tail).
type FollowOptions struct {
	Service string
	Tail    int
	Since   int64
}

// LogLine is one line of a followed log; Seq grows by one per line.
type LogLine struct {
	Seq       int64     `json:"seq"`
	Line      string    `json:"line"`
	Service   string    `json:"service"`
	Stream    string    `json:"stream"`
	Timestamp time.Time `json:"timestamp"`
}

// Template is an import template (docs/api.md, Templates). Category is the
// category's name; Versions are filled by Get only.
type Template struct {
	ID               int64             `json:"id"`
	Name             string            `json:"name"`
	Description      string            `json:"description,omitempty"`
	System           bool              `json:"system"`
	Author           string            `json:"author,omitempty"`
	Category         string            `json:"category,omitempty"`
	CategoryID       int64             `json:"category_id,omitempty"`
	ImageURL         string            `json:"image_url,omitempty"`
	Source           *TemplateSource   `json:"source,omitempty"`
	LatestVersion    int64             `json:"latest_version,omitempty"`
	LatestVersionID  int64             `json:"latest_version_id,omitempty"`
	LatestVersionTag string            `json:"latest_version_tag,omitempty"`
	VersionTags      []string          `json:"version_tags,omitempty"`
	Variables        map[string]any    `json:"variables,omitempty"`
	CreatedAt        *time.Time        `json:"created_at,omitempty"`
	UpdatedAt        *time.Time        `json:"updated_at,omitempty"`
	Versions         []TemplateVersion `json:"versions,omitempty"`
}

// TemplateVersion is one version of a template's body.
type TemplateVersion struct {
	ID                int64                  `json:"id"`
	Version           int64                  `json:"version"`
	Public            bool                   `json:"public"`
	Approved          bool                   `json:"approved,omitempty"`
	GreenfieldDefault bool                   `json:"greenfield_default,omitempty"`
	TemplateBody      string                 `json:"template_body,omitempty"`
	Changelog         string                 `json:"changelog,omitempty"`
	Source            *TemplateVersionSource `json:"source,omitempty"`
	Variables         map[string]any         `json:"variables,omitempty"`
	CreatedAt         *time.Time             `json:"created_at,omitempty"`
}

// TemplateSource is the repository file a template is kept in step with.
type TemplateSource struct {
	ID                int64      `json:"id,omitempty"`
	PropID            *int64     `json:"prop_id,omitempty"`
	PropName          string     `json:"prop_name,omitempty"`
	PropRepositoryURL string     `json:"prop_repository_url,omitempty"`
	Path              string     `json:"path"`
	Ref               string     `json:"ref"`
	AutoRefresh       bool       `json:"auto_refresh,omitempty"`
	AutoUpgrade       bool       `json:"auto_upgrade,omitempty"`
	CIEnabled         bool       `json:"ci_enabled,omitempty"`
	CIMarqueeID       *int64     `json:"ci_marquee_id,omitempty"`
	CIMarqueeName     string     `json:"ci_marquee_name,omitempty"`
	LastStatus        string     `json:"last_status,omitempty"`
	LastCommitSHA     string     `json:"last_commit_sha,omitempty"`
	LastContentSHA    string     `json:"last_content_sha,omitempty"`
	LastRefreshedAt   *time.Time `json:"last_refreshed_at,omitempty"`
	LastError         string     `json:"last_error,omitempty"`
}

// TemplateVersionSource is where a version read from a source came from.
type TemplateVersionSource struct {
	PropID            *int64 `json:"prop_id,omitempty"`
	PropName          string `json:"prop_name,omitempty"`
	PropRepositoryURL string `json:"prop_repository_url,omitempty"`
	Path              string `json:"path,omitempty"`
	Ref               string `json:"ref,omitempty"`
	CommitSHA         string `json:"commit_sha,omitempty"`
	ContentSHA        string `json:"content_sha,omitempty"`
}

// TemplateCategory is one of the categories templates are filed under.
type TemplateCategory struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// TemplateUpgrade is the result of upgrading the playspecs launched from
// a template to one of its versions.
type TemplateUpgrade struct {
	Success       bool             `json:"success"`
	UpgradedCount int64            `json:"upgraded_count"`
	FailedCount   int64            `json:"failed_count"`
	Results       []map[string]any `json:"results,omitempty"`
	Errors        []string         `json:"errors,omitempty"`
}

// TemplateSourceRefresh is the result of reading a template's source again.
type TemplateSourceRefresh struct {
	Success        bool             `json:"success"`
	VersionCreated bool             `json:"version_created"`
	Version        *TemplateVersion `json:"version,omitempty"`
	Upgrade        map[string]any   `json:"upgrade,omitempty"`
	Errors         []string         `json:"errors,omitempty"`
	Payload        map[string]any   `json:"payload,omitempty"`
	Template       *Template        `json:"template,omitempty"`
}

// LaunchResult is what a launch created: the playspec, the playground
// (0 when none was asked for) and the props registered on the way. A
// template launch also names the playground (ID, Name, Status).
type LaunchResult struct {
	PlayspecID   int64   `json:"playspec_id"`
	PlaygroundID int64   `json:"playground_id,omitempty"`
	PropsCreated []int64 `json:"props_created"`
	ID           int64   `json:"id,omitempty"`
	Name         string  `json:"name,omitempty"`
	Status       string  `json:"status,omitempty"`
}
