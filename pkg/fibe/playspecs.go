package fibe

import (
	"context"
	"iter"
	"strings"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// PlayspecsService is the playspecs, templates of playgrounds:
// /api/playspecs. A ref is a numeric id or a name.
type PlayspecsService struct{ c *Client }

// List returns one page of playspecs; Search matches the name and the
// description, Name is a substring of the name.
func (s *PlayspecsService) List(ctx context.Context, o *ListOptions) ([]*Playspec, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = *o
	}
	return listPage[Playspec](ctx, s.c, lo, s.c.c.Playspecs.List, lo.engine())
}

// All iterates lazily over every playspec o selects, as
// PlaygroundsService.All does.
func (s *PlayspecsService) All(ctx context.Context, o *ListOptions) iter.Seq2[*Playspec, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one playspec with its detail.
func (s *PlayspecsService) Get(ctx context.Context, ref string) (*Playspec, *Response, error) {
	return getOne[Playspec](ctx, s.c, ref, s.c.c.Playspecs.Get)
}

// Create creates a playspec. A BaseComposeYAML that is not YAML is
// INVALID_ARGUMENT, and nothing is sent. Service definitions and the
// trigger, muti and schedule configs go in p.Extra under their API names
// ("services", "trigger_config", ...).
func (s *PlayspecsService) Create(ctx context.Context, p *PlayspecCreateParams, opts ...CallOption) (*Playspec, *Response, error) {
	return createOne[Playspec](ctx, s.c, p, opts, s.c.c.Playspecs.Create)
}

// Update changes a playspec; only the fields given are sent.
func (s *PlayspecsService) Update(ctx context.Context, ref string, p *PlayspecUpdateParams, opts ...CallOption) (*Playspec, *Response, error) {
	return updateOne[Playspec](ctx, s.c, ref, p, opts, s.c.c.Playspecs.UpdateWait)
}

// Delete deletes a playspec. One that playgrounds still use is refused
// (CONFLICT).
func (s *PlayspecsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Playspecs.Delete)
}

// Services returns the services of a playspec, read from its compose and
// its service definitions.
func (s *PlayspecsService) Services(ctx context.Context, ref string) ([]*ServiceSpec, *Response, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, nil, err
	}
	items, meta, err := s.c.c.Playspecs.Services(ctx, ref)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	out, cerr := convertAll[ServiceSpec](items)
	return out, newResponse(meta), cerr
}

// ComposeCheck is what ValidateCompose checks: the compose's YAML and,
// optionally, what it is for.
type ComposeCheck struct {
	YAML string
	// TargetType is what the compose is for, as the platform names it.
	TargetType string
	// JobMode checks it for job-mode playgrounds: a watched service is
	// needed.
	JobMode bool
}

// ValidateCompose asks the platform to check a compose. YAML that does
// not parse is INVALID_ARGUMENT, with the line and column, and nothing is
// sent; a compose that parses but is unusable is a ComposeValidation with
// Valid false and its errors.
func (s *PlayspecsService) ValidateCompose(ctx context.Context, in ComposeCheck) (*ComposeValidation, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	if err := resource.CheckYAML(in.YAML); err != nil {
		return nil, nil, invalidArgument("compose_yaml", err.Error())
	}
	v, meta, err := s.c.c.Playspecs.ValidateCompose(ctx, client.ComposeCheck{YAML: in.YAML, TargetType: in.TargetType, JobMode: in.JobMode})
	return result[ComposeValidation](v, meta, err)
}

// MountedFileUpload is a file to mount into a playspec's services.
type MountedFileUpload struct {
	Filename  string // the file's own name; the platform may keep it under another
	Content   []byte
	MountPath string // an absolute path inside the services
	// ReadOnly, when set, says whether the services may write it.
	ReadOnly *bool
	// TargetServices are the services that mount it; none: all.
	TargetServices []string
}

// AddMountedFile uploads a file (multipart/form-data) and returns the
// playspec with its mounted files. A missing filename or a mount path that
// is not absolute is INVALID_ARGUMENT, and nothing is sent.
func (s *PlayspecsService) AddMountedFile(ctx context.Context, ref string, f MountedFileUpload, opts ...CallOption) (*Playspec, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(f.Filename) == "" {
		return nil, nil, invalidArgument("filename", "is empty")
	}
	if !strings.HasPrefix(f.MountPath, "/") {
		return nil, nil, invalidArgument("mount_path", "must be an absolute path")
	}
	ps, meta, err := s.c.c.Playspecs.AddMountedFile(ctx, ref, client.MountUpload{Filename: f.Filename, Content: f.Content,
		MountPath: f.MountPath, ReadOnly: f.ReadOnly, TargetServices: f.TargetServices}, mo)
	return result[Playspec](ps, meta, err)
}

// MountedFileChange changes a mounted file, named by Filename (as the
// playspec's MountedFiles show it); zero fields are not sent.
type MountedFileChange struct {
	Filename       string
	MountPath      string
	ReadOnly       *bool
	TargetServices []string
}

// UpdateMountedFile changes a mounted file and returns the playspec.
func (s *PlayspecsService) UpdateMountedFile(ctx context.Context, ref string, f MountedFileChange, opts ...CallOption) (*Playspec, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if f.Filename == "" {
		return nil, nil, invalidArgument("filename", "is empty")
	}
	if f.MountPath != "" && !strings.HasPrefix(f.MountPath, "/") {
		return nil, nil, invalidArgument("mount_path", "must be an absolute path")
	}
	ps, meta, err := s.c.c.Playspecs.UpdateMountedFile(ctx, ref, client.MountChange{Filename: f.Filename, MountPath: f.MountPath,
		ReadOnly: f.ReadOnly, TargetServices: f.TargetServices}, mo)
	return result[Playspec](ps, meta, err)
}

// RemoveMountedFile removes a mounted file and returns the playspec.
func (s *PlayspecsService) RemoveMountedFile(ctx context.Context, ref, filename string, opts ...CallOption) (*Playspec, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if filename == "" {
		return nil, nil, invalidArgument("filename", "is empty")
	}
	ps, meta, err := s.c.c.Playspecs.RemoveMountedFile(ctx, ref, filename, mo)
	return result[Playspec](ps, meta, err)
}

// RegistryCredentialParams are a registry credential to add. Secret is
// sent once and never shown back.
type RegistryCredentialParams struct {
	RegistryType string // dockerhub, ghcr, gitlab, gcr, ecr, acr or custom
	RegistryURL  string
	Username     string
	Secret       string
}

// AddRegistryCredential adds a credential for pulling the playspec's
// images and returns its credentials. A blank field is INVALID_ARGUMENT,
// and nothing is sent.
func (s *PlayspecsService) AddRegistryCredential(ctx context.Context, ref string, p RegistryCredentialParams, opts ...CallOption) ([]*RegistryCredential, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range []struct{ name, value string }{
		{"registry_type", p.RegistryType}, {"registry_url", p.RegistryURL}, {"username", p.Username}, {"secret", p.Secret},
	} {
		if strings.TrimSpace(f.value) == "" {
			return nil, nil, invalidArgument(f.name, "is empty")
		}
	}
	creds, meta, err := s.c.c.Playspecs.AddRegistryCredential(ctx, ref, client.RegistryCredentialInput{RegistryType: p.RegistryType,
		RegistryURL: p.RegistryURL, Username: p.Username, Secret: p.Secret}, mo)
	return credentialsResult(creds, meta, err)
}

// RemoveRegistryCredential removes a credential by id and returns the
// credentials left.
func (s *PlayspecsService) RemoveRegistryCredential(ctx context.Context, ref, id string, opts ...CallOption) ([]*RegistryCredential, *Response, error) {
	_, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		return nil, nil, invalidArgument("id", "is empty")
	}
	creds, meta, err := s.c.c.Playspecs.RemoveRegistryCredential(ctx, ref, id, mo)
	return credentialsResult(creds, meta, err)
}

func credentialsResult(creds []client.RegistryCredential, meta *client.Response, err error) ([]*RegistryCredential, *Response, error) {
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	out, cerr := convertAll[RegistryCredential](creds)
	return out, newResponse(meta), cerr
}
