package mcpserver

import (
	"context"
	"strconv"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ---- templates and launches: the tools beyond the generic verbs

func tplRef(in *jsonschema.Schema) {
	in.Properties["template"].Description = "Template id or name"
}

type tplVersionsIn struct {
	Template string `json:"template"`
	Page     int    `json:"page,omitempty" jsonschema:"Page to fetch (default 1)"`
	PerPage  int    `json:"per_page,omitempty" jsonschema:"Versions per page, at most 100 (default 25)"`
}

func (in tplVersionsIn) validate() error { return nonBlank("template", in.Template) }

func tplVersions() *Tool {
	return define(spec{name: "fibe_templates_versions", title: "List a template's versions", readOnly: true,
		desc:   "A template's versions, newest first, with their bodies and whether each is public. Same as `fibe templates versions list T --json`.",
		output: listSchema[client.TemplateVersion](), tweak: tplRef},
		func(ctx context.Context, c *call, in *tplVersionsIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			vs, meta, err := cl.Templates.Versions(ctx, in.Template, client.ListOptions{Page: in.Page, PerPage: in.PerPage})
			if err != nil {
				return nil, err
			}
			return listPage[client.TemplateVersion]{Items: vs, Page: &meta.Page, PerPage: &meta.PerPage, Total: &meta.Total}, nil
		})
}

type tplPublishIn struct {
	Template string `json:"template"`
	Version  int64  `json:"version,omitempty" jsonschema:"Version id (default: the latest version)"`
	Public   bool   `json:"public" jsonschema:"true to publish the version, false to make it private"`
	mutationArgs
	waitArgs
}

func (in tplPublishIn) validate() error { return nonBlank("template", in.Template) }

func tplPublish() *Tool {
	return define(spec{name: "fibe_templates_publish", title: "Publish or unpublish a template version",
		desc: "Make a template version public or private. The current state is read first and nothing is sent when it " +
			"already holds, so calling this twice is safe. Same as `fibe templates publish|unpublish T [VERSION] --json`.",
		output: schemaOf[client.TemplateVersion](), tweak: tplRef},
		func(ctx context.Context, c *call, in *tplPublishIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			v, _, resp, err := cl.Templates.SetPublic(ctx, in.Template, in.Version, in.Public, in.mutationArgs.options())
			c.resp = resp
			return v, err
		})
}

type tplVersionCreateIn struct {
	Template     string `json:"template"`
	TemplateBody string `json:"template_body" jsonschema:"The version's body: a compose file's content"`
	Public       bool   `json:"public,omitempty" jsonschema:"Publish the version at once"`
	Changelog    string `json:"changelog,omitempty" jsonschema:"What changed in this version"`
	mutationArgs
	waitArgs
}

func (in tplVersionCreateIn) validate() error {
	if err := nonBlank("template", in.Template); err != nil {
		return err
	}
	return nonBlank("template_body", in.TemplateBody)
}

func tplVersionCreate() *Tool {
	return define(spec{name: "fibe_templates_version_create", title: "Add a version to a template",
		desc:   "Add a version to a template (private unless public is true). Same as `fibe templates versions create T --body FILE --json`.",
		output: schemaOf[client.TemplateVersion](), tweak: tplRef},
		func(ctx context.Context, c *call, in *tplVersionCreateIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			body := map[string]any{"template_body": in.TemplateBody}
			if in.Public {
				body["public"] = true
			}
			if in.Changelog != "" {
				body["changelog"] = in.Changelog
			}
			v, resp, err := cl.Templates.CreateVersion(ctx, in.Template, body, in.mutationArgs.options())
			c.resp = resp
			return v, err
		})
}

type launchTarget struct {
	Marquee      string            `json:"marquee,omitempty" jsonschema:"Marquee id or name to run the playground on"`
	Name         string            `json:"name,omitempty" jsonschema:"Name of the playspec and its playground"`
	EnvOverrides map[string]string `json:"env_overrides,omitempty" jsonschema:"The playground's environment overrides: an object, name to value"`
}

func (t launchTarget) body() map[string]any {
	body := map[string]any{}
	if t.Marquee != "" {
		body["marquee_id"] = resource.IDOrName(t.Marquee)
	}
	if t.Name != "" {
		body["name"] = t.Name
	}
	if len(t.EnvOverrides) > 0 {
		body["env_overrides"] = t.EnvOverrides
	}
	return body
}

type tplLaunchIn struct {
	Template string `json:"template"`
	Version  int64  `json:"version,omitempty" jsonschema:"Version number to launch (default: the latest)"`
	launchTarget
	mutationArgs
	waitArgs
}

func (in tplLaunchIn) validate() error {
	if err := nonBlank("template", in.Template); err != nil {
		return err
	}
	return nonBlank("marquee", in.Marquee)
}

func tplLaunch() *Tool {
	return define(spec{name: "fibe_templates_launch", title: "Launch a template",
		desc: "Create a playspec of a template and a playground of it on a marquee; answers {playspec_id, playground_id, " +
			"props_created, id, name, status} once the playground runs (wait false: at once). Same as " +
			"`fibe templates launch T --marquee M --json`.",
		output: schemaOf[client.LaunchResult](), tweak: tplRef},
		func(ctx context.Context, c *call, in *tplLaunchIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			body := in.launchTarget.body()
			if in.Version > 0 {
				body["version"] = in.Version
			}
			r, resp, err := cl.Templates.Launch(ctx, in.Template, body, in.mutationArgs.options())
			c.resp = resp
			return launched(ctx, c, cl, r, in.waitArgs, err)
		})
}

type launchIn struct {
	ComposeYAML string `json:"compose_yaml" jsonschema:"The compose file's content"`
	JobMode     bool   `json:"job_mode,omitempty" jsonschema:"Launch as a job (a trick): its services run to completion"`
	launchTarget
	mutationArgs
	waitArgs
}

func (in launchIn) validate() error {
	if err := nonBlank("compose_yaml", in.ComposeYAML); err != nil {
		return err
	}
	return nonBlank("name", in.Name)
}

func launchTool() *Tool {
	return define(spec{name: "fibe_launch", title: "Launch a compose file",
		desc: "Create a playspec from a compose file and, when a marquee is given, a playground of it; answers " +
			"{playspec_id, playground_id, props_created} once the playground runs (wait false: at once). " +
			"Same as `fibe launch --compose FILE --name N --marquee M --json`.",
		output: schemaOf[client.LaunchResult]()},
		func(ctx context.Context, c *call, in *launchIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			body := in.launchTarget.body()
			body["compose_yaml"] = in.ComposeYAML
			if in.JobMode {
				body["job_mode"] = true
			}
			r, resp, err := cl.Launch.Create(ctx, body, in.mutationArgs.options())
			c.resp = resp
			return launched(ctx, c, cl, r, in.waitArgs, err)
		})
}

// launched waits, unless told not to, until a launch's playground runs
// (a playground that fails instead is the error), and answers the launch.
func launched(ctx context.Context, c *call, cl *client.Client, r *client.LaunchResult, w waitArgs, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	wo := w.options(c)
	if r.PlaygroundID == 0 || wo.NoWait {
		return r, nil
	}
	c.setLabel("waiting for playground %d", r.PlaygroundID)
	if _, err := cl.Playgrounds.Wait(ctx, strconv.FormatInt(r.PlaygroundID, 10), "running", wo); err != nil {
		return nil, err
	}
	return r, nil
}
