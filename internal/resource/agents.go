package resource

import (
	"context"
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// AgentProviders are the providers an agent may run.
var AgentProviders = []string{"gemini", "antigravity", "claude-code", "openai-codex", "opencode", "cursor"}

func agents() *Resource {
	both := []Verb{VerbCreate, VerbUpdate}
	return &Resource{
		Name: "agents", Singular: "agent", Aliases: []string{"agent"},
		Short:   "Manage agents, the AI coding agents of the account",
		Path:    "/api/agents",
		Wrapper: "agent",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "name", Arg: "name", Help: "Name of the agent (at most 255 characters)", On: both, Required: true, Max: 255},
			{Wire: "provider", Arg: "provider", Help: "Provider the agent runs", On: []Verb{VerbCreate}, Required: true, Enum: AgentProviders},
			{Wire: "description", Arg: "description", Help: "What the agent is for", On: both},
			{Wire: "model_options", Arg: "model", Help: "Model the provider runs (model options)", On: both},
			{Wire: "memory_limit", Arg: "memory-limit", Help: "Memory limit of the agent's runtime (e.g. 2g)", On: both},
			{Wire: "cpu_limit", Arg: "cpu-limit", Help: "CPU limit of the agent's runtime (e.g. 1.5)", On: both},
			{Wire: "prompt", Arg: "prompt", Help: "Prompt the agent starts from", On: both},
			{Wire: "system_prompt", Arg: "system-prompt", Help: "System prompt", On: both},
			{Wire: "cli_version", Arg: "cli-version", Help: "Version of the provider's CLI (default: latest)", On: both},
			{Wire: "sync_enabled", Arg: "sync", Kind: Bool, Help: "Sync the agent's work", On: both},
			{Wire: "syscheck_enabled", Arg: "syscheck", Kind: Bool, Help: "Run system checks", On: both},
		},
		SortKeys: []string{"created_at", "name"},
		Filters: []Filter{
			{Arg: "provider", Query: "provider", Values: AgentProviders, Help: "Only agents of this provider"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "PROVIDER", Key: "provider_label"},
			{Header: "STATUS", Key: "status", Kind: Status},
			{Header: "CREATED", Key: "created_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Provider", Key: "provider_label"},
			{Header: "Status", Key: "status", Kind: Status},
			{Header: "Description", Key: "description"},
			{Header: "Model", Key: "effective_model_options"},
			{Header: "Memory", Key: "effective_memory_limit"},
			{Header: "CPU", Key: "effective_cpu_limit"},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Actions: []Action{
			{Name: "duplicate", Wire: "copy", Help: "Copy an agent under a new name", Progress: "Copying", Path: "/copies",
				Result: reflect.TypeFor[client.Agent]()},
		},
		Item: reflect.TypeFor[client.Agent](),
		ops:  agentOps(),
	}
}

// agentOps are the generic verbs and duplicate on the client's agents
// service.
func agentOps() ops {
	o := writeOps[client.Agent](func(c *client.Client) *client.AgentsService { return c.Agents })
	o.action = func(ctx context.Context, c *client.Client, ref string, _ Action, _ bool, mo client.MutationOptions, _ client.WaitOptions) (any, *client.Response, error) {
		a, resp, err := c.Agents.Duplicate(ctx, ref, mo)
		return nilIfNone(a), resp, err
	}
	return o
}
