package mcpserver

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
)

// ---- props: the tools beyond the generic verbs and the sync action

func propTools() []*Tool {
	return []*Tool{propBranches(), propEnvDefaults(), propAttach(), propMirror()}
}

// propRef describes the prop argument.
func propRef(in *jsonschema.Schema) {
	in.Properties["prop"].Description = "Prop id or name"
}

type propBranchesIn struct {
	Prop  string `json:"prop"`
	Query string `json:"query,omitempty" jsonschema:"Only branches whose name contains this text"`
	Limit int    `json:"limit,omitempty" jsonschema:"At most this many branches (1-1000; default: the server's)"`
}

func (in propBranchesIn) validate() error {
	if in.Limit < 0 || in.Limit > 1000 {
		return invalidArgument("limit", "limit must be between 1 and 1000")
	}
	return nonBlank("prop", in.Prop)
}

type propBranchesOut struct {
	Branches []client.PropBranch `json:"branches"`
}

func propBranches() *Tool {
	return define(spec{name: "fibe_props_branches", title: "List the branches of a prop", readOnly: true,
		desc: "The branches of a prop's repository, the default one marked: {\"branches\": [{\"name\", \"default\", ...}]}. " +
			"A repository not synced yet may have none. Same as `fibe props branches P --json`.",
		output: schemaOf[propBranchesOut](), tweak: propRef},
		func(ctx context.Context, c *call, in *propBranchesIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			b, err := cl.Props.Branches(ctx, in.Prop, in.Query, in.Limit)
			if err != nil {
				return nil, err
			}
			return propBranchesOut{Branches: b}, nil
		})
}

type propEnvDefaultsIn struct {
	Prop    string `json:"prop"`
	Branch  string `json:"branch" jsonschema:"The branch to read"`
	EnvFile string `json:"env_file,omitempty" jsonschema:"The env file, relative to the repository (default .env.example)"`
}

func (in propEnvDefaultsIn) validate() error {
	if err := nonBlank("prop", in.Prop); err != nil {
		return err
	}
	if err := nonBlank("branch", in.Branch); err != nil {
		return err
	}
	if in.EnvFile != "" && (path.IsAbs(in.EnvFile) || slices.Contains(strings.Split(in.EnvFile, "/"), "..")) {
		return invalidArgument("env_file", "env_file must be a path inside the repository")
	}
	return nil
}

type propEnvDefaultsOut struct {
	Defaults map[string]string `json:"defaults"`
}

func propEnvDefaults() *Tool {
	return define(spec{name: "fibe_props_env_defaults", title: "Show the env defaults of a prop's branch", readOnly: true,
		desc: "The variables an env file of a prop's branch defines: {\"defaults\": {KEY: value}}. " +
			"Same as `fibe props env-defaults P --branch B --json`.",
		output: schemaOf[propEnvDefaultsOut](), tweak: propRef},
		func(ctx context.Context, c *call, in *propEnvDefaultsIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			d, err := cl.Props.EnvDefaults(ctx, in.Prop, in.Branch, in.EnvFile)
			if err != nil {
				return nil, err
			}
			return propEnvDefaultsOut{Defaults: d}, nil
		})
}

type propAttachIn struct {
	Repo string `json:"repo" jsonschema:"The repository's full name, owner/repo"`
	mutationArgs
	waitArgs
}

func (in propAttachIn) validate() error {
	owner, name, ok := strings.Cut(in.Repo, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return invalidArgument("repo", "repo must be owner/repo")
	}
	return nil
}

func propAttach() *Tool {
	return define(spec{name: "fibe_props_attach", title: "Link a GitHub repository as a prop",
		desc: "Link a repository of the connected GitHub account, by its full name, as a prop; Fibe must be able to push " +
			"to it (fork someone else's first, or use fibe_props_mirror). Same as `fibe props attach OWNER/REPO --json`.",
		output: orHandle(schemaOf[client.Prop]())},
		func(ctx context.Context, c *call, in *propAttachIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			p, resp, err := cl.Props.Attach(ctx, in.Repo, in.mutationArgs.options(), in.waitArgs.options(c))
			return propResult(c, p, resp, err)
		})
}

type propMirrorIn struct {
	SourceURL string `json:"source_url" jsonschema:"The repository to copy, https://host/owner/repo"`
	Name      string `json:"name,omitempty" jsonschema:"Name of the prop and of the copy (default: the source's)"`
	mutationArgs
	waitArgs
}

func (in propMirrorIn) validate() error {
	if !strings.HasPrefix(in.SourceURL, "https://") && !strings.HasPrefix(in.SourceURL, "http://") {
		return invalidArgument("source_url", "source_url must be an http(s) URL of a repository")
	}
	return nil
}

func propMirror() *Tool {
	return define(spec{name: "fibe_props_mirror", title: "Mirror a repository as a prop",
		desc: "Copy a repository (any owner's) into the account's Fibe Gitea and link the copy as a prop. " +
			"Same as `fibe props mirror URL --json`.",
		output: orHandle(schemaOf[client.Prop]())},
		func(ctx context.Context, c *call, in *propMirrorIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			p, resp, err := cl.Props.Mirror(ctx, in.SourceURL, in.Name, in.mutationArgs.options(), in.waitArgs.options(c))
			return propResult(c, p, resp, err)
		})
}

// propResult is the result of a prop mutation: the prop, or the handle of
// a 202 not waited on.
func propResult(c *call, p *client.Prop, resp *client.Response, err error) (any, error) {
	c.resp = resp
	if err != nil {
		return nil, err
	}
	if p == nil && resp != nil && resp.Accepted != nil {
		return resp.Accepted, nil
	}
	return p, nil
}
