package mcpserver

import (
	"context"

	"github.com/fibegg/fibe/internal/client"
)

// ---- breakers and identity

type noArgs struct{}

type breakerStatusIn struct {
	Resource string `json:"resource,omitempty" jsonschema:"Only this breaker, e.g. marquee/prod-eu (a breaker that never tripped is closed). Default: all of them"`
}

func breakerStatus() *Tool {
	return define(spec{name: "fibe_breaker_status", title: "Show the circuit breakers", readOnly: true, local: true,
		desc: "The circuit breakers of this API (one per marquee, one for the API host): {\"items\": [{resource, state " +
			"(closed, open, half-open), consecutive_failures, open_until}]}. Same as `fibe breaker status --json` (which prints the list).",
		output: listSchema[client.BreakerStatus]()},
		func(ctx context.Context, c *call, in *breakerStatusIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			list, err := cl.Breakers()
			if err != nil {
				return nil, err
			}
			out := listPage[client.BreakerStatus]{Items: []client.BreakerStatus{}}
			for _, b := range list {
				if in.Resource == "" || b.Resource == in.Resource {
					out.Items = append(out.Items, b)
				}
			}
			if in.Resource != "" && len(out.Items) == 0 {
				out.Items = append(out.Items, client.BreakerStatus{Resource: in.Resource, State: "closed"})
			}
			out.Total = ptr(len(out.Items))
			return out, nil
		})
}

type breakerResetIn struct {
	Resource string `json:"resource,omitempty" jsonschema:"The breaker to close, e.g. marquee/prod-eu (default: all of them)"`
}

func breakerReset() *Tool {
	return define(spec{name: "fibe_breaker_reset", title: "Close circuit breakers", idempotent: true, local: true,
		desc:   "Close one breaker, such as marquee/prod-eu, or all of them. Same as `fibe breaker reset --json`.",
		output: anyObject()},
		func(ctx context.Context, c *call, in *breakerResetIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			if err := cl.ResetBreakers(in.Resource); err != nil {
				return nil, err
			}
			return map[string]any{"reset": orDefault(in.Resource, "all")}, nil
		})
}

func whoami() *Tool {
	return define(spec{name: "fibe_whoami", title: "Who am I", readOnly: true,
		desc:   "The authenticated player (GET /api/me): {id, username, email, avatar_url, api_key_scopes}.",
		output: schemaOf[client.User]()},
		func(ctx context.Context, c *call, _ *noArgs) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			u, _, err := cl.Me(ctx)
			return u, err
		})
}
