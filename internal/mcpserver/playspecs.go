package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ---- playspecs: the tools beyond the generic verbs

type psServicesIn struct {
	Playspec string `json:"playspec"`
}

func (in psServicesIn) validate() error { return nonBlank("playspec", in.Playspec) }

func psServices() *Tool {
	return define(spec{name: "fibe_playspecs_services", title: "List a playspec's services", readOnly: true,
		desc: "The services of a playspec, read from its compose and its service definitions: {\"items\": [{name, type, " +
			"image, public, port, visibility, job_watch}]}. Same as `fibe ps services --json` (which prints the list).",
		output: listSchema[client.PlayspecService](),
		tweak:  func(s *jsonschema.Schema) { s.Properties["playspec"].Description = "Playspec id or name" }},
		func(ctx context.Context, c *call, in *psServicesIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			services, _, err := cl.Playspecs.Services(ctx, in.Playspec)
			if err != nil {
				return nil, err
			}
			return listPage[client.PlayspecService]{Items: services, Total: ptr(len(services))}, nil
		})
}

type composeValidateIn struct {
	ComposeYAML string `json:"compose_yaml" jsonschema:"The Docker Compose file itself, as YAML text"`
	JobMode     bool   `json:"job_mode,omitempty" jsonschema:"Check it for job-mode playgrounds: a service labelled fibe.gg/job_watch is needed"`
	TargetType  string `json:"target_type,omitempty" jsonschema:"What the compose is for, as the platform names it"`
}

// validate refuses text that is not YAML, with its line and column,
// before anything is sent.
func (in composeValidateIn) validate() error {
	if err := nonBlank("compose_yaml", in.ComposeYAML); err != nil {
		return err
	}
	if err := resource.CheckYAML(in.ComposeYAML); err != nil {
		return invalidArgument("compose_yaml", "compose_yaml %s", err)
	}
	return nil
}

func composeValidate() *Tool {
	return define(spec{name: "fibe_compose_validate", title: "Check a compose file", readOnly: true,
		desc: "Check a Docker Compose file before making a playspec of it: YAML that does not parse is INVALID_ARGUMENT " +
			"with the line and column; otherwise the platform answers {valid, services, errors, warnings}. Same as " +
			"`fibe ps validate --compose FILE --json`.",
		output: schemaOf[client.ComposeValidation]()},
		func(ctx context.Context, c *call, in *composeValidateIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			v, _, err := cl.Playspecs.ValidateCompose(ctx, client.ComposeCheck{YAML: in.ComposeYAML, TargetType: in.TargetType, JobMode: in.JobMode})
			return v, err
		})
}
