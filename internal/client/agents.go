package client

import (
	"context"
	"net/http"
	"time"
)

// Agent is an AI agent's configuration (docs/api.md, Agents). The
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

// AgentsService is /api/agents. A ref is an id or a name.
type AgentsService struct{ *Collection[Agent] }

// Duplicate copies the agent ref: a new agent with the same provider and
// settings under a name of its own (201).
func (s *AgentsService) Duplicate(ctx context.Context, ref string, mo MutationOptions) (*Agent, *Response, error) {
	var a Agent
	meta, err := s.Member(ctx, http.MethodPost, ref, "copies", nil, mo, WaitOptions{}, &a)
	if err != nil {
		return nil, meta, err
	}
	return &a, meta, nil
}

// RuntimeStatus reads where the agent's chat runtime is.
func (s *AgentsService) RuntimeStatus(ctx context.Context, ref string) (*AgentRuntimeStatus, *Response, error) {
	var st AgentRuntimeStatus
	meta, err := s.Query(ctx, http.MethodGet, ref, "runtime_status", nil, nil, &st)
	if err != nil {
		return nil, meta, err
	}
	return &st, meta, nil
}
