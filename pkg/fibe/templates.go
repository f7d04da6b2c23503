package fibe

import (
	"context"
	"encoding/base64"
	"iter"
	"strconv"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// TemplatesService is the import templates, reusable compose files with
// versions: /api/import_templates. A template is addressed by its id or
// its name, a version by its id.
type TemplatesService struct{ c *Client }

// TemplateListOptions select a page of templates: the common options and
// the templates' own filters.
type TemplateListOptions struct {
	ListOptions
	// CategoryID keeps the templates of one category (0: any).
	CategoryID int64
	// System, when set, keeps only system templates (true) or none of
	// them (false).
	System *bool
}

func (o TemplateListOptions) engine() client.ListOptions {
	lo := o.ListOptions.engine()
	lo.Filters = map[string]string{}
	if o.CategoryID != 0 {
		lo.Filters["category_id"] = strconv.FormatInt(o.CategoryID, 10)
	}
	if o.System != nil {
		lo.Filters["system"] = strconv.FormatBool(*o.System)
	}
	return lo
}

// List returns one page of the templates one may read: one's own, the
// system ones and other players' published ones.
func (s *TemplatesService) List(ctx context.Context, o *TemplateListOptions) ([]*Template, *Response, error) {
	var lo TemplateListOptions
	if o != nil {
		lo = *o
	}
	return listPage[Template](ctx, s.c, lo.ListOptions, s.c.c.Templates.List, lo.engine())
}

// All iterates lazily over every template o selects.
func (s *TemplatesService) All(ctx context.Context, o *TemplateListOptions) iter.Seq2[*Template, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one template with its versions.
func (s *TemplatesService) Get(ctx context.Context, ref string) (*Template, *Response, error) {
	return getOne[Template](ctx, s.c, ref, s.c.c.Templates.Get)
}

// Create creates a template and its first version (p.TemplateBody).
func (s *TemplatesService) Create(ctx context.Context, p *TemplateCreateParams, opts ...CallOption) (*Template, *Response, error) {
	return createOne[Template](ctx, s.c, p, opts, s.c.c.Templates.Create)
}

// Update changes a template's name, description or category.
func (s *TemplatesService) Update(ctx context.Context, ref string, p *TemplateUpdateParams, opts ...CallOption) (*Template, *Response, error) {
	return updateOne[Template](ctx, s.c, ref, p, opts, s.c.c.Templates.UpdateWait)
}

// Delete deletes a template and its versions.
func (s *TemplatesService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Templates.Delete)
}

// Versions returns one page of a template's versions, newest first (only
// Page and PerPage of o apply).
func (s *TemplatesService) Versions(ctx context.Context, ref string, o *ListOptions) ([]*TemplateVersion, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	page := func(ctx context.Context, lo client.ListOptions) ([]client.TemplateVersion, *client.ListMeta, error) {
		return s.c.c.Templates.Versions(ctx, ref, lo)
	}
	return listPage[TemplateVersion](ctx, s.c, lo, page, client.ListOptions{Page: lo.Page, PerPage: lo.PerPage})
}

// TemplateVersionParams are a new version of a template.
type TemplateVersionParams struct {
	TemplateBody string // the version's body, a compose file; required
	Public       bool   // publish it at once
	Changelog    string // what changed
}

// CreateVersion adds a version to a template.
func (s *TemplatesService) CreateVersion(ctx context.Context, ref string, p *TemplateVersionParams, opts ...CallOption) (*TemplateVersion, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if p == nil || p.TemplateBody == "" {
		return nil, nil, invalidArgument("template_body", "is required")
	}
	body := map[string]any{"template_body": p.TemplateBody}
	if p.Public {
		body["public"] = true
	}
	if p.Changelog != "" {
		body["changelog"] = p.Changelog
	}
	v, meta, err := s.c.c.Templates.CreateVersion(ctx, ref, body, mo)
	return result[TemplateVersion](v, meta, err)
}

// DeleteVersion deletes version vid of a template.
func (s *TemplatesService) DeleteVersion(ctx context.Context, ref string, vid int64, opts ...CallOption) (*Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, err
	}
	meta, err := s.c.c.Templates.DeleteVersion(ctx, ref, vid, mo)
	if err != nil {
		return responseOf(meta), fromClient(err)
	}
	return newResponse(meta), nil
}

// SetPublic makes version vid (0: the latest) public or private. It reads
// the version first and sends nothing when it already is; the Response is
// then empty (StatusCode 0: no mutation was sent). The platform's route flips the flag on every
// call, so the change is sent once, and a retry of it carries the same
// Idempotency-Key: it is replayed, never applied twice.
func (s *TemplatesService) SetPublic(ctx context.Context, ref string, vid int64, public bool, opts ...CallOption) (*TemplateVersion, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	v, _, meta, err := s.c.c.Templates.SetPublic(ctx, ref, vid, public, mo)
	return result[TemplateVersion](v, meta, err)
}

// Upgrade upgrades the playspecs launched from a template to version vid
// (an operation, waited on unless NoWait).
func (s *TemplatesService) Upgrade(ctx context.Context, ref string, vid int64, opts ...CallOption) (*TemplateUpgrade, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	u, meta, err := s.c.c.Templates.Upgrade(ctx, ref, vid, mo, o.wait())
	return result[TemplateUpgrade](u, meta, err)
}

// Fork copies another player's public template into a template of one's
// own; forking one's own is FORK_FAILED.
func (s *TemplatesService) Fork(ctx context.Context, ref string, opts ...CallOption) (*Template, *Response, error) {
	return actNow[Template](ctx, s.c, ref, opts, s.c.c.Templates.Fork)
}

// TemplateImageParams are a template's image.
type TemplateImageParams struct {
	Filename    string // required
	Data        []byte // the image itself; sent base64-encoded
	ContentType string // default: detected by the server
}

// UploadImage sets a template's image.
func (s *TemplatesService) UploadImage(ctx context.Context, ref string, p *TemplateImageParams, opts ...CallOption) (*Template, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case p == nil || p.Filename == "":
		return nil, nil, invalidArgument("filename", "is required")
	case len(p.Data) == 0:
		return nil, nil, invalidArgument("image_data", "is empty")
	}
	body := map[string]any{"filename": p.Filename, "image_data": base64.StdEncoding.EncodeToString(p.Data)}
	if p.ContentType != "" {
		body["content_type"] = p.ContentType
	}
	t, meta, err := s.c.c.Templates.UploadImage(ctx, ref, body, mo)
	return result[Template](t, meta, err)
}

// TemplateSourceParams link a template to a file of a prop's repository.
type TemplateSourceParams struct {
	Prop        string // the prop, an id or a name; required
	Path        string // the file's path in the repository; required
	Ref         string // the branch or tag (default: the server's)
	AutoRefresh bool   // read the file again when it changes
	AutoUpgrade bool   // upgrade launched playspecs to each new version
}

// SetSource links a template to a file of a prop's repository.
func (s *TemplatesService) SetSource(ctx context.Context, ref string, p *TemplateSourceParams, opts ...CallOption) (*Template, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case p == nil || p.Prop == "":
		return nil, nil, invalidArgument("source_prop_id", "is required")
	case p.Path == "":
		return nil, nil, invalidArgument("source_path", "is required")
	}
	body := map[string]any{"source_prop_id": resource.IDOrName(p.Prop), "source_path": p.Path,
		"source_auto_refresh": p.AutoRefresh, "source_auto_upgrade": p.AutoUpgrade}
	if p.Ref != "" {
		body["source_ref"] = p.Ref
	}
	t, meta, err := s.c.c.Templates.SetSource(ctx, ref, body, mo)
	return result[Template](t, meta, err)
}

// ClearSource unlinks a template from its source.
func (s *TemplatesService) ClearSource(ctx context.Context, ref string, opts ...CallOption) (*Template, *Response, error) {
	return actNow[Template](ctx, s.c, ref, opts, s.c.c.Templates.ClearSource)
}

// RefreshSource reads a template's source again (an operation, waited on
// unless NoWait).
func (s *TemplatesService) RefreshSource(ctx context.Context, ref string, opts ...CallOption) (*TemplateSourceRefresh, *Response, error) {
	return actOn[TemplateSourceRefresh](ctx, s.c, ref, opts, s.c.c.Templates.RefreshSource)
}

// Categories returns one page of the categories templates are filed under
// (only Page and PerPage of o apply).
func (s *TemplatesService) Categories(ctx context.Context, o *ListOptions) ([]*TemplateCategory, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return listPage[TemplateCategory](ctx, s.c, lo, s.c.c.Templates.Categories, client.ListOptions{Page: lo.Page, PerPage: lo.PerPage})
}

// TemplateLaunchParams launch a template on a marquee.
type TemplateLaunchParams struct {
	Marquee      string            // the marquee, an id or a name; required
	Name         string            // the playspec's and playground's name (default: the server's)
	Version      int64             // the version number (default: the latest)
	EnvOverrides map[string]string // the playground's environment overrides
}

// Launch creates a playspec of a template and a playground of it on a
// marquee. It does not wait for the playground: Playgrounds.Wait does.
func (s *TemplatesService) Launch(ctx context.Context, ref string, p *TemplateLaunchParams, opts ...CallOption) (*LaunchResult, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if p == nil || p.Marquee == "" {
		return nil, nil, invalidArgument("marquee_id", "is required")
	}
	body := map[string]any{"marquee_id": resource.IDOrName(p.Marquee)}
	if p.Name != "" {
		body["name"] = p.Name
	}
	if p.Version > 0 {
		body["version"] = p.Version
	}
	if len(p.EnvOverrides) > 0 {
		body["env_overrides"] = p.EnvOverrides
	}
	r, meta, err := s.c.c.Templates.Launch(ctx, ref, body, mo)
	return result[LaunchResult](r, meta, err)
}

// LaunchService is POST /api/launches: a playspec from a compose file
// and, on a marquee, a playground of it.
type LaunchService struct{ c *Client }

// LaunchParams are a launch: ComposeYAML and Name, or RepositoryURL.
type LaunchParams struct {
	ComposeYAML   string            // the compose file's content
	Name          string            // the playspec's and playground's name
	RepositoryURL string            // launch a repository's compose file instead
	Marquee       string            // the marquee (id or name); none: the playspec only
	JobMode       bool              // a job (a trick): its services run to completion
	EnvOverrides  map[string]string // the playground's environment overrides
}

// Create launches. Each launch creates new resources; a retry of the call
// reuses its Idempotency-Key and is replayed, not launched twice. It does
// not wait for the playground: Playgrounds.Wait does.
func (s *LaunchService) Create(ctx context.Context, p *LaunchParams, opts ...CallOption) (*LaunchResult, *Response, error) {
	_, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if p == nil {
		return nil, nil, invalidArgument("params", "is nil")
	}
	switch {
	case p.RepositoryURL != "" && p.ComposeYAML != "":
		return nil, nil, invalidArgument("repository_url", "cannot be combined with compose_yaml")
	case p.RepositoryURL == "" && p.ComposeYAML == "":
		return nil, nil, invalidArgument("compose_yaml", "is required (or repository_url)")
	case p.RepositoryURL == "" && p.Name == "":
		return nil, nil, invalidArgument("name", "is required")
	}
	body := map[string]any{}
	for k, v := range map[string]string{"compose_yaml": p.ComposeYAML, "name": p.Name, "repository_url": p.RepositoryURL} {
		if v != "" {
			body[k] = v
		}
	}
	if p.Marquee != "" {
		body["marquee_id"] = resource.IDOrName(p.Marquee)
	}
	if p.JobMode {
		body["job_mode"] = true
	}
	if len(p.EnvOverrides) > 0 {
		body["env_overrides"] = p.EnvOverrides
	}
	r, meta, err := s.c.c.Launch.Create(ctx, body, mo)
	return result[LaunchResult](r, meta, err)
}
