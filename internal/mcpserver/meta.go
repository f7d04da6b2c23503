package mcpserver

import (
	"context"

	"github.com/fibegg/fibe/internal/client"
)

// ---- breakers and identity

type noArgs struct{}

func breakerStatus() *Tool {
	return define(spec{name: "fibe_breaker_status", title: "Show the circuit breakers", readOnly: true, local: true,
		desc: "The circuit breakers of this API (one per marquee, one for the API host): resource, state " +
			"(closed, open, half-open), consecutive failures, open_until. Same as `fibe breaker status --json`.",
		output: schemaOf[[]client.BreakerStatus]()},
		func(ctx context.Context, c *call, _ *noArgs) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			list, err := cl.Breakers()
			if list == nil {
				list = []client.BreakerStatus{}
			}
			return list, err
		})
}

type breakerResetIn struct {
	Resource string `json:"resource,omitempty" jsonschema:"The breaker to close, e.g. marquee/prod-eu (default: all of them)"`
}

func breakerReset() *Tool {
	return define(spec{name: "fibe_breaker_reset", title: "Close circuit breakers", idempotent: true, local: true,
		desc:   "Close one breaker, such as marquee/prod-eu, or all of them. Same as `fibe breaker reset --json`.",
		output: anyObject},
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
