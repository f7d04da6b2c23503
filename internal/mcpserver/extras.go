package mcpserver

import (
	"context"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// ---- playground extras (--tools full): its environment, its compose
// file and its diagnostics, read-only.

func extraTools() []*Tool { return []*Tool{pgEnv(), pgCompose(), pgDebug()} }

type pgRefIn struct {
	Playground string `json:"playground"`
}

func (in pgRefIn) validate() error { return nonBlank("playground", in.Playground) }

func pgEnv() *Tool {
	return define(spec{name: "fibe_playgrounds_env", title: "Show a playground's environment", readOnly: true,
		desc: "The environment a playground's services get: {\"merged\": {KEY: value}, \"metadata\", \"system_keys\"}; " +
			"system_keys are set by the platform and no override changes them. Same as `fibe pg env --json`.",
		output: schemaOf[client.EnvMetadata](), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgRefIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			env, _, err := cl.Playgrounds.EnvMetadata(ctx, in.Playground)
			return env, err
		})
}

func pgCompose() *Tool {
	return define(spec{name: "fibe_playgrounds_compose", title: "Show a playground's compose file", readOnly: true,
		desc: "The compose file the platform rendered for a playground: {\"compose_yaml\", \"compose_project\"}; " +
			"compose_yaml is empty until the playground has been provisioned. Same as `fibe pg compose --json`.",
		output: schemaOf[client.PlaygroundCompose](), tweak: pgRef},
		func(ctx context.Context, c *call, in *pgRefIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			cmp, _, err := cl.Playgrounds.Compose(ctx, in.Playground)
			return cmp, err
		})
}

type pgDebugIn struct {
	Playground string `json:"playground"`
	Mode       string `json:"mode,omitempty" jsonschema:"summary (default) or full: full adds each service's log tail and the failure detail"`
	Service    string `json:"service,omitempty" jsonschema:"Only this service"`
	LogsTail   int    `json:"logs_tail,omitempty" jsonschema:"Log lines to include (default 50)"`
	Refresh    *bool  `json:"refresh,omitempty" jsonschema:"Ask the marquee for live diagnostics, an async operation (default true)"`
	waitArgs
}

func (in pgDebugIn) validate() error {
	if err := nonBlank("playground", in.Playground); err != nil {
		return err
	}
	if in.Mode != "" && !slices.Contains(client.DebugModes, in.Mode) {
		return invalidArgument("mode", "mode must be %s", strings.Join(client.DebugModes, " or "))
	}
	if in.LogsTail < 0 {
		return invalidArgument("logs_tail", "logs_tail must not be negative")
	}
	return nil
}

// pgDebug asks for live diagnostics with 50 log lines unless told
// otherwise: an agent debugging a playground wants the state of now.
func pgDebug() *Tool {
	return define(spec{name: "fibe_playgrounds_debug", title: "Diagnose a playground", readOnly: true,
		desc: "A playground's diagnostics: {\"playground\": {id, name, status}, \"startup\": {state, exit_code, available, " +
			"missing_artifacts, log_tail}, \"services\", ...}. Live by default (refresh, an async operation waited on). " +
			"Same as `fibe pg debug --refresh --json`.",
		output: orHandle(&jsonschema.Schema{Type: "object"}),
		tweak: func(s *jsonschema.Schema) {
			pgRef(s)
			enum(s, "mode", client.DebugModes...)
		}},
		func(ctx context.Context, c *call, in *pgDebugIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			o := client.DebugOptions{Mode: in.Mode, Service: in.Service, LogsTail: in.LogsTail, Refresh: in.Refresh == nil || *in.Refresh}
			if o.LogsTail == 0 {
				o.LogsTail = 50
			}
			c.setLabel("diagnosing %s", in.Playground)
			report, resp, err := cl.Playgrounds.Debug(ctx, in.Playground, o, in.waitArgs.options(c))
			c.resp = resp
			if err != nil {
				return nil, err
			}
			if report == nil && resp != nil && resp.Accepted != nil {
				return resp.Accepted, nil
			}
			return report, nil
		})
}
