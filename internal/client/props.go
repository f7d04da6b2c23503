package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// PropsService is /api/props, the git repositories linked to Fibe. A ref
// is a numeric id or a name.
type PropsService struct{ *Collection[Prop] }

const propsPath = "/api/props"

// Attach links a repository of the player's connected GitHub account by
// its full name ("owner/repo"): POST /api/props/attachments. A 202, if the
// server answers one, is waited on as wo says.
func (s *PropsService) Attach(ctx context.Context, repoFullName string, mo MutationOptions, wo WaitOptions) (*Prop, *Response, error) {
	var p Prop
	meta, err := s.Member(ctx, http.MethodPost, "", "attachments", map[string]any{"repo_full_name": repoFullName}, mo, wo, &p)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return &p, meta, nil
}

// Mirror copies the repository at sourceURL into the player's Gitea
// account and links the copy (name "" lets the server choose):
// POST /api/props/mirrors. A 202 is waited on as wo says.
func (s *PropsService) Mirror(ctx context.Context, sourceURL, name string, mo MutationOptions, wo WaitOptions) (*Prop, *Response, error) {
	body := map[string]any{"source_url": sourceURL}
	if name != "" {
		body["name"] = name
	}
	var p Prop
	meta, err := s.Member(ctx, http.MethodPost, "", "mirrors", body, mo, wo, &p)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return &p, meta, nil
}

// Sync asks the platform to fetch the repository again. It answers at
// once with a message (a plain 2xx, not an operation to wait on).
func (s *PropsService) Sync(ctx context.Context, ref string, mo MutationOptions) (*SyncResult, *Response, error) {
	var out SyncResult
	meta, err := s.Member(ctx, http.MethodPost, ref, "syncs", nil, mo, WaitOptions{}, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}

// Branches lists the branches of the prop's repository whose name
// contains query ("" for all), at most limit of them (0: the server's
// default). Never nil on success.
func (s *PropsService) Branches(ctx context.Context, ref, query string, limit int) ([]PropBranch, error) {
	q := url.Values{}
	if query != "" {
		q.Set("query", query)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	var out PropBranches
	if _, err := s.Query(ctx, http.MethodGet, ref, "branches", q, nil, &out); err != nil {
		return nil, err
	}
	if out.Branches == nil {
		out.Branches = []PropBranch{}
	}
	return out.Branches, nil
}

// EnvDefaults returns the variables the env file envFile ("" for the
// server's default, .env.example) defines on branch. Never nil on success.
func (s *PropsService) EnvDefaults(ctx context.Context, ref, branch, envFile string) (map[string]string, error) {
	q := url.Values{"branch": {branch}}
	if envFile != "" {
		q.Set("env_file_path", envFile)
	}
	var out PropEnvDefaults
	if _, err := s.Query(ctx, http.MethodGet, ref, "env_defaults", q, nil, &out); err != nil {
		return nil, err
	}
	if out.Defaults == nil {
		out.Defaults = map[string]string{}
	}
	return out.Defaults, nil
}

// ReposService is the git repositories behind props: creating one on
// GitHub or on Fibe's Gitea, and checking whether Fibe can push to GitHub
// repositories.
type ReposService struct{ c *Client }

// CreateGitHub creates a repository under the player's connected GitHub
// account (no prop: Props.Attach links it).
func (s *ReposService) CreateGitHub(ctx context.Context, r NewRepo, mo MutationOptions) (*GitRepo, *Response, error) {
	return s.create(ctx, "/api/github_repositories", r, mo)
}

// CreateGitea creates a repository on Fibe's Gitea and links it as a new
// prop (GitRepo.Prop).
func (s *ReposService) CreateGitea(ctx context.Context, r NewRepo, mo MutationOptions) (*GitRepo, *Response, error) {
	return s.create(ctx, "/api/gitea_repositories", r, mo)
}

func (s *ReposService) create(ctx context.Context, path string, r NewRepo, mo MutationOptions) (*GitRepo, *Response, error) {
	var out GitRepo
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: path, body: r, mo: mo}, &out)
	if err != nil {
		return nil, meta, err
	}
	return &out, meta, nil
}

// Status says, for each GitHub URL, whether Fibe can push to it and what
// to do when it cannot. It changes nothing: a lost answer is asked again.
func (s *ReposService) Status(ctx context.Context, githubURLs []string) ([]RepoStatus, *Response, error) {
	if githubURLs == nil {
		githubURLs = []string{}
	}
	var out struct {
		Repos []RepoStatus `json:"repos"`
	}
	meta, err := s.c.call(ctx, &request{method: http.MethodPost, ref: "/api/repo_status_checks",
		body: map[string]any{"github_urls": githubURLs}, readOnly: true}, &out)
	if err != nil {
		return nil, meta, err
	}
	if out.Repos == nil {
		out.Repos = []RepoStatus{}
	}
	return out.Repos, meta, nil
}
