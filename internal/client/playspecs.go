package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// PlayspecsService is /api/playspecs: the generic verbs of a collection
// (a ref is an id or a name), the services a playspec's compose defines,
// its mounted files and registry credentials, and compose validation.
type PlayspecsService struct{ *Collection[Playspec] }

const playspecsPath = "/api/playspecs"

func newPlayspecsService(c *Client) *PlayspecsService {
	return &PlayspecsService{NewCollection[Playspec](c, playspecsPath, "playspec")}
}

// Services returns the services of a playspec (a bare JSON array).
func (s *PlayspecsService) Services(ctx context.Context, ref string) ([]PlayspecService, *Response, error) {
	var out []PlayspecService
	meta, err := s.Query(ctx, http.MethodGet, ref, "services", nil, nil, &out)
	if err != nil {
		return nil, meta, err
	}
	if out == nil {
		out = []PlayspecService{}
	}
	return out, meta, nil
}

// MountUpload is a file to mount into a playspec's services.
type MountUpload struct {
	Filename  string // the file's own name; the platform may store it under another
	Content   []byte
	MountPath string // where the services see it: an absolute path
	// ReadOnly, when set, is sent as "true" or "false".
	ReadOnly *bool
	// TargetServices are the services that mount it (none: all).
	TargetServices []string
}

// AddMountedFile uploads a file (multipart/form-data) and returns the
// playspec as it is now.
func (s *PlayspecsService) AddMountedFile(ctx context.Context, ref string, in MountUpload, mo MutationOptions) (*Playspec, *Response, error) {
	if strings.TrimSpace(in.Filename) == "" {
		return nil, nil, InvalidArgument("filename", "is empty")
	}
	fields := map[string]string{"mount_path": in.MountPath}
	if in.ReadOnly != nil {
		fields["readonly"] = strconv.FormatBool(*in.ReadOnly)
	}
	if len(in.TargetServices) > 0 {
		fields["target_services"] = strings.Join(in.TargetServices, ",")
	}
	body, err := multipartBody(fields, "file", in.Filename, in.Content)
	if err != nil {
		return nil, nil, InvalidArgument("file", "%v", err)
	}
	return s.member(ctx, http.MethodPost, ref, "mounts", body, mo)
}

// MountChange changes a mounted file, named by Filename; empty fields are
// not sent.
type MountChange struct {
	Filename       string
	MountPath      string
	ReadOnly       *bool
	TargetServices []string
}

// UpdateMountedFile changes a mounted file and returns the playspec.
func (s *PlayspecsService) UpdateMountedFile(ctx context.Context, ref string, in MountChange, mo MutationOptions) (*Playspec, *Response, error) {
	body := map[string]any{"filename": in.Filename}
	if in.MountPath != "" {
		body["mount_path"] = in.MountPath
	}
	if in.ReadOnly != nil {
		body["readonly"] = *in.ReadOnly
	}
	if in.TargetServices != nil {
		body["target_services"] = in.TargetServices
	}
	return s.member(ctx, http.MethodPatch, ref, "mounts", body, mo)
}

// RemoveMountedFile removes a mounted file: a DELETE whose JSON body names
// it.
func (s *PlayspecsService) RemoveMountedFile(ctx context.Context, ref, filename string, mo MutationOptions) (*Playspec, *Response, error) {
	return s.member(ctx, http.MethodDelete, ref, "mounts", map[string]any{"filename": filename}, mo)
}

func (s *PlayspecsService) member(ctx context.Context, method, ref, sub string, body any, mo MutationOptions) (*Playspec, *Response, error) {
	var out Playspec
	meta, err := s.Member(ctx, method, ref, sub, body, mo, WaitOptions{}, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}

// RegistryCredentialInput is a registry credential to add; the secret is
// sent once and never shown back.
type RegistryCredentialInput struct {
	RegistryType string `json:"registry_type"` // dockerhub, ghcr, gitlab, gcr, ecr, acr, custom
	RegistryURL  string `json:"registry_url"`
	Username     string `json:"username"`
	Secret       string `json:"secret"`
}

type credentialsBody struct {
	Credentials []RegistryCredential `json:"credentials"`
}

// AddRegistryCredential adds a credential and returns the playspec's
// credentials.
func (s *PlayspecsService) AddRegistryCredential(ctx context.Context, ref string, in RegistryCredentialInput, mo MutationOptions) ([]RegistryCredential, *Response, error) {
	var out credentialsBody
	meta, err := s.Member(ctx, http.MethodPost, ref, "registry_credentials", in, mo, WaitOptions{}, &out)
	return out.Credentials, meta, err
}

// RemoveRegistryCredential removes a credential by id (a DELETE whose
// JSON body names it) and returns the credentials left.
func (s *PlayspecsService) RemoveRegistryCredential(ctx context.Context, ref, id string, mo MutationOptions) ([]RegistryCredential, *Response, error) {
	var out credentialsBody
	meta, err := s.Member(ctx, http.MethodDelete, ref, "registry_credentials", map[string]any{"credential_id": id}, mo, WaitOptions{}, &out)
	return out.Credentials, meta, err
}

// ComposeCheck is a compose to validate and what it is for.
type ComposeCheck struct {
	YAML       string
	TargetType string
	JobMode    bool
}

// ValidateCompose asks the platform to check a compose (POST
// /api/compose_validations, which changes nothing).
func (s *PlayspecsService) ValidateCompose(ctx context.Context, in ComposeCheck) (*ComposeValidation, *Response, error) {
	body := map[string]any{"compose_yaml": in.YAML}
	if in.TargetType != "" {
		body["target_type"] = in.TargetType
	}
	if in.JobMode {
		body["job_mode"] = true
	}
	var out ComposeValidation
	meta, err := s.c.call(ctx, &request{method: http.MethodPost, ref: "/api/compose_validations", body: body, readOnly: true}, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}
