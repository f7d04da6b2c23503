package fibe

import (
	"context"
	"iter"

	"github.com/fibegg/fibe/internal/client"
)

// AgentsService is the account's AI coding agents: /api/agents. A ref is
// a numeric id or a name.
type AgentsService struct{ c *Client }

// AgentListOptions are ListOptions plus the agents' own filters: a
// provider, and whether each agent comes with its runtime status.
type AgentListOptions struct {
	ListOptions
	Provider             string
	IncludeRuntimeStatus bool
}

func (o *AgentListOptions) engine() client.ListOptions {
	if o == nil {
		return client.ListOptions{}
	}
	lo := o.ListOptions.engine()
	lo.Filters = map[string]string{}
	if o.Provider != "" {
		lo.Filters["provider"] = o.Provider
	}
	if o.IncludeRuntimeStatus {
		lo.Filters["include_runtime_status"] = "true"
	}
	return lo
}

// List returns one page of agents; Response.Page says which.
func (s *AgentsService) List(ctx context.Context, o *AgentListOptions) ([]*Agent, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = o.ListOptions
	}
	return listPage[Agent](ctx, s.c, lo, s.c.c.Agents.List, o.engine())
}

// All iterates lazily over every agent o selects, as PlaygroundsService.All.
func (s *AgentsService) All(ctx context.Context, o *AgentListOptions) iter.Seq2[*Agent, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one agent.
func (s *AgentsService) Get(ctx context.Context, ref string) (*Agent, *Response, error) {
	return getOne[Agent](ctx, s.c, ref, s.c.c.Agents.Get)
}

// Create creates an agent (201).
func (s *AgentsService) Create(ctx context.Context, p *AgentCreateParams, opts ...CallOption) (*Agent, *Response, error) {
	return createOne[Agent](ctx, s.c, p, opts, s.c.c.Agents.Create)
}

// Update changes an agent; its provider cannot change.
func (s *AgentsService) Update(ctx context.Context, ref string, p *AgentUpdateParams, opts ...CallOption) (*Agent, *Response, error) {
	return updateOne[Agent](ctx, s.c, ref, p, opts, s.c.c.Agents.UpdateWait)
}

// Delete deletes an agent.
func (s *AgentsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Agents.Delete)
}

// Duplicate copies an agent: a new id, the same provider and settings,
// a name of its own.
func (s *AgentsService) Duplicate(ctx context.Context, ref string, opts ...CallOption) (*Agent, *Response, error) {
	return actNow[Agent](ctx, s.c, ref, opts, s.c.c.Agents.Duplicate)
}

// RuntimeStatus reads where an agent's chat runtime is.
func (s *AgentsService) RuntimeStatus(ctx context.Context, ref string) (*AgentRuntimeStatus, *Response, error) {
	return getOne[AgentRuntimeStatus](ctx, s.c, ref, s.c.c.Agents.RuntimeStatus)
}
