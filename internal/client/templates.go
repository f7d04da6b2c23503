package client

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"strconv"
)

// TemplatesService is /api/import_templates (docs/api.md, Templates). A
// template is addressed by its id or its name, a version by its id.
type TemplatesService struct{ *Collection[Template] }

// templateBodyField is the create field that goes beside the wrapper.
const templateBodyField = "template_body"

// Create creates a template. body holds its metadata (name, description,
// category_id) and template_body, the first version's body, which the
// platform reads beside the "import_template" object, not inside it.
func (s *TemplatesService) Create(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*Template, *Response, error) {
	meta := maps.Clone(body)
	wire := map[string]any{}
	if tb, ok := meta[templateBodyField]; ok {
		delete(meta, templateBodyField)
		wire[templateBodyField] = tb
	}
	wire[s.Wrapper] = meta
	return s.CreateBody(ctx, wire, mo, wo)
}

func (s *TemplatesService) versionPath(vid int64, sub string) string {
	p := "versions/" + strconv.FormatInt(vid, 10)
	if sub != "" {
		p += "/" + sub
	}
	return p
}

// Versions returns one page of a template's versions, newest first (only
// Page and PerPage of o apply).
func (s *TemplatesService) Versions(ctx context.Context, ref string, o ListOptions) ([]TemplateVersion, *ListMeta, error) {
	var env listEnvelope[TemplateVersion]
	if _, err := s.Query(ctx, http.MethodGet, ref, "versions", pageQuery(o), nil, &env); err != nil {
		return nil, nil, err
	}
	if env.Data == nil {
		env.Data = []TemplateVersion{}
	}
	return env.Data, &env.Meta, nil
}

// CreateVersion adds a version: body is {"template_body", "public"?,
// "changelog"?}, sent as it is (versions take no wrapper).
func (s *TemplatesService) CreateVersion(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*TemplateVersion, *Response, error) {
	var v TemplateVersion
	resp, err := s.Member(ctx, http.MethodPost, ref, "versions", body, mo, WaitOptions{}, &v)
	if err != nil {
		return nil, resp, err
	}
	return &v, resp, nil
}

// DeleteVersion deletes version vid of the template.
func (s *TemplatesService) DeleteVersion(ctx context.Context, ref string, vid int64, mo MutationOptions) (*Response, error) {
	return s.Member(ctx, http.MethodDelete, ref, s.versionPath(vid, ""), nil, mo, WaitOptions{}, nil)
}

// Version returns version vid of the template (0: its latest version),
// read from the template.
func (s *TemplatesService) Version(ctx context.Context, ref string, vid int64) (*TemplateVersion, *Response, error) {
	t, resp, err := s.Get(ctx, ref)
	if err != nil {
		return nil, resp, err
	}
	var found *TemplateVersion
	for i := range t.Versions {
		v := &t.Versions[i]
		if (vid == 0 && (found == nil || v.Version > found.Version)) || v.ID == vid {
			found = v
		}
	}
	if found == nil {
		what := "version " + strconv.FormatInt(vid, 10)
		if vid == 0 {
			what = "a version"
		}
		return nil, resp, &Error{Code: CodeNotFound, Status: http.StatusNotFound,
			Message: "template " + ref + " has no " + what}
	}
	return found, resp, nil
}

// TogglePublication flips version vid between public and private. The
// platform flips on every call: a retry is only safe under the same
// Idempotency-Key, which the client keeps for every retry of the call.
// SetPublic is what a caller who knows the state it wants should use.
func (s *TemplatesService) TogglePublication(ctx context.Context, ref string, vid int64, mo MutationOptions) (*TemplateVersion, *Response, error) {
	var v TemplateVersion
	resp, err := s.Member(ctx, http.MethodPatch, ref, s.versionPath(vid, "publication"), nil, mo, WaitOptions{}, &v)
	if err != nil {
		return nil, resp, err
	}
	return &v, resp, nil
}

// SetPublic makes version vid (0: the latest) public or private. It
// reads the version first and sends nothing when it already is (changed
// false, no Response); otherwise it toggles the publication once.
func (s *TemplatesService) SetPublic(ctx context.Context, ref string, vid int64, public bool, mo MutationOptions) (v *TemplateVersion, changed bool, resp *Response, err error) {
	cur, resp, err := s.Version(ctx, ref, vid)
	if err != nil {
		return nil, false, resp, err
	}
	if cur.Public == public {
		return cur, false, nil, nil
	}
	v, resp, err = s.TogglePublication(ctx, ref, cur.ID, mo)
	return v, err == nil, resp, err
}

// Upgrade upgrades the playspecs launched from the template to version
// vid: an operation (202), waited on as wo says.
func (s *TemplatesService) Upgrade(ctx context.Context, ref string, vid int64, mo MutationOptions, wo WaitOptions) (*TemplateUpgrade, *Response, error) {
	var out TemplateUpgrade
	resp, err := s.Member(ctx, http.MethodPost, ref, s.versionPath(vid, "upgrades"), nil, mo, wo, &out)
	if err != nil || notWaited(resp, wo) {
		return nil, resp, err
	}
	return &out, resp, nil
}

// Fork copies another player's public template (its latest public
// version) into a new template of one's own.
func (s *TemplatesService) Fork(ctx context.Context, ref string, mo MutationOptions) (*Template, *Response, error) {
	return s.memberTemplate(ctx, http.MethodPost, ref, "forks", nil, mo)
}

// SetSource links the template to a file of a prop's repository; body is
// the "source" object (source_prop_id, source_path, ...).
func (s *TemplatesService) SetSource(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*Template, *Response, error) {
	return s.memberTemplate(ctx, http.MethodPut, ref, "source", map[string]any{"source": body}, mo)
}

// ClearSource unlinks the template from its source.
func (s *TemplatesService) ClearSource(ctx context.Context, ref string, mo MutationOptions) (*Template, *Response, error) {
	return s.memberTemplate(ctx, http.MethodDelete, ref, "source", nil, mo)
}

// RefreshSource reads the template's source again (202, waited on as wo
// says), which may create a version.
func (s *TemplatesService) RefreshSource(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*TemplateSourceRefresh, *Response, error) {
	var out TemplateSourceRefresh
	resp, err := s.Member(ctx, http.MethodPost, ref, "source", nil, mo, wo, &out)
	if err != nil || notWaited(resp, wo) {
		return nil, resp, err
	}
	return &out, resp, nil
}

// UploadImage sets the template's image: body is {"filename",
// "image_data" (base64), "content_type"?}.
func (s *TemplatesService) UploadImage(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*Template, *Response, error) {
	return s.memberTemplate(ctx, http.MethodPost, ref, "images", body, mo)
}

// PatchPreview shows what a patch (body: base_version_id and
// template_body or edits) would make of a version; nothing changes.
func (s *TemplatesService) PatchPreview(ctx context.Context, ref string, body map[string]any) (map[string]any, *Response, error) {
	var out map[string]any
	resp, err := s.Query(ctx, http.MethodPost, ref, "patch_previews", nil, body, &out)
	return out, resp, err
}

// Patch creates a version from a patch of another.
func (s *TemplatesService) Patch(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (map[string]any, *Response, error) {
	var out map[string]any
	resp, err := s.Member(ctx, http.MethodPost, ref, "patches", body, mo, WaitOptions{}, &out)
	return out, resp, err
}

// Launch creates a playspec from the template (its latest version, or
// body's "version") and a playground of it on body's "marquee_id".
func (s *TemplatesService) Launch(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*LaunchResult, *Response, error) {
	var out LaunchResult
	resp, err := s.Member(ctx, http.MethodPost, ref, "launches", body, mo, WaitOptions{}, &out)
	if err != nil {
		return nil, resp, err
	}
	return &out, resp, nil
}

func (s *TemplatesService) memberTemplate(ctx context.Context, method, ref, sub string, body any, mo MutationOptions) (*Template, *Response, error) {
	var t Template
	resp, err := s.Member(ctx, method, ref, sub, body, mo, WaitOptions{}, &t)
	if err != nil {
		return nil, resp, err
	}
	return &t, resp, nil
}

// Categories returns one page of the categories templates are filed under.
func (s *TemplatesService) Categories(ctx context.Context, o ListOptions) ([]TemplateCategory, *ListMeta, error) {
	var env listEnvelope[TemplateCategory]
	path := templateCategoriesPath
	if q := pageQuery(o); len(q) > 0 {
		path += "?" + q.Encode()
	}
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: path}, &env); err != nil {
		return nil, nil, err
	}
	if env.Data == nil {
		env.Data = []TemplateCategory{}
	}
	return env.Data, &env.Meta, nil
}

const templateCategoriesPath = "/api/template_categories"

// pageQuery is the page and per_page of o.
func pageQuery(o ListOptions) url.Values {
	q := url.Values{}
	if o.Page > 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.PerPage > 0 {
		q.Set("per_page", strconv.Itoa(o.PerPage))
	}
	return q
}

// LaunchService is POST /api/launches: a playspec from a compose file (or
// a repository), and a playground of it when a marquee is given.
type LaunchService struct{ c *Client }

const launchesPath = "/api/launches"

// Create launches; body is sent as it is (launches take no wrapper):
// compose_yaml and name, or repository_url, and marquee_id, env_overrides,
// job_mode, ...
func (s *LaunchService) Create(ctx context.Context, body map[string]any, mo MutationOptions) (*LaunchResult, *Response, error) {
	var out LaunchResult
	resp, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: launchesPath, body: body, mo: mo}, &out)
	if err != nil {
		return nil, resp, err
	}
	return &out, resp, nil
}

// AllCategories walks every page of the categories from o.Page on.
func (s *TemplatesService) AllCategories(ctx context.Context, o ListOptions) ([]TemplateCategory, error) {
	return listAll(ctx, o, s.Categories)
}
