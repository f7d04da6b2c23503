package fibe

import (
	"context"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// PropsService is the props, the git repositories linked to Fibe:
// /api/props. A ref is a numeric id or a name.
type PropsService struct{ c *Client }

func (o *PropListOptions) engine() (client.ListOptions, error) {
	if o == nil {
		return client.ListOptions{}, nil
	}
	lo := o.ListOptions.engine()
	if o.Provider != "" && !slices.Contains(resource.PropProviders, o.Provider) {
		return lo, invalidArgument("provider", "must be one of "+strings.Join(resource.PropProviders, ", "))
	}
	lo.Filters = map[string]string{}
	if o.Provider != "" {
		lo.Filters["provider"] = o.Provider
	}
	if o.Private != nil {
		lo.Filters["private"] = strconv.FormatBool(*o.Private)
	}
	return lo, nil
}

// List returns one page of props; Response.Page says which.
func (s *PropsService) List(ctx context.Context, o *PropListOptions) ([]*Prop, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = o.ListOptions
	}
	engine, err := o.engine()
	if err != nil {
		return nil, nil, err
	}
	return listPage[Prop](ctx, s.c, lo, s.c.c.Props.List, engine)
}

// All iterates lazily over every prop o selects, as
// PlaygroundsService.All does.
func (s *PropsService) All(ctx context.Context, o *PropListOptions) iter.Seq2[*Prop, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one prop, with its detail fields.
func (s *PropsService) Get(ctx context.Context, ref string) (*Prop, *Response, error) {
	return getOne[Prop](ctx, s.c, ref, s.c.c.Props.Get)
}

// Create links a repository Fibe can push to.
func (s *PropsService) Create(ctx context.Context, p *PropCreateParams, opts ...CallOption) (*Prop, *Response, error) {
	return createOne[Prop](ctx, s.c, p, opts, s.c.c.Props.Create)
}

// Update changes a prop.
func (s *PropsService) Update(ctx context.Context, ref string, p *PropUpdateParams, opts ...CallOption) (*Prop, *Response, error) {
	return updateOne[Prop](ctx, s.c, ref, p, opts, s.c.c.Props.UpdateWait)
}

// Delete unlinks a prop (the repository stays where it is).
func (s *PropsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Props.Delete)
}

// Attach links a repository of the connected GitHub account by its full
// name, "owner/repo".
func (s *PropsService) Attach(ctx context.Context, repoFullName string, opts ...CallOption) (*Prop, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if owner, name, ok := strings.Cut(repoFullName, "/"); !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		return nil, nil, invalidArgument("repo_full_name", "must be owner/repo")
	}
	p, meta, err := s.c.c.Props.Attach(ctx, repoFullName, mo, o.wait())
	return result[Prop](p, meta, err)
}

// Mirror copies the repository at sourceURL into the player's Gitea
// account and links the copy; name "" lets the platform choose.
func (s *PropsService) Mirror(ctx context.Context, sourceURL, name string, opts ...CallOption) (*Prop, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if !strings.HasPrefix(sourceURL, "https://") && !strings.HasPrefix(sourceURL, "http://") {
		return nil, nil, invalidArgument("source_url", "must be an http(s) URL of a repository")
	}
	p, meta, err := s.c.c.Props.Mirror(ctx, sourceURL, name, mo, o.wait())
	return result[Prop](p, meta, err)
}

// Sync asks the platform to fetch the repository again; it answers at once
// with a message.
func (s *PropsService) Sync(ctx context.Context, ref string, opts ...CallOption) (*SyncResult, *Response, error) {
	return actNow[SyncResult](ctx, s.c, ref, opts, s.c.c.Props.Sync)
}

// Branches lists the branches of a prop's repository whose name contains
// query ("" for all), at most limit (0: the platform's default).
func (s *PropsService) Branches(ctx context.Context, ref, query string, limit int) ([]*PropBranch, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, invalidArgument("limit", "is negative")
	}
	branches, err := s.c.c.Props.Branches(ctx, ref, query, limit)
	if err != nil {
		return nil, fromClient(err)
	}
	return convertAll[PropBranch](branches)
}

// EnvDefaults returns the variables the env file envFile ("" for the
// platform's default, .env.example) defines on branch.
func (s *PropsService) EnvDefaults(ctx context.Context, ref, branch, envFile string) (map[string]string, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, err
	}
	if strings.TrimSpace(branch) == "" {
		return nil, invalidArgument("branch", "is empty")
	}
	d, err := s.c.c.Props.EnvDefaults(ctx, ref, branch, envFile)
	if err != nil {
		return nil, fromClient(err)
	}
	return d, nil
}

// ReposService is the git repositories behind props.
type ReposService struct{ c *Client }

func (p *RepoParams) engine() (client.NewRepo, error) {
	if p == nil {
		return client.NewRepo{}, invalidArgument("params", "is nil")
	}
	if strings.TrimSpace(p.Name) == "" {
		return client.NewRepo{}, invalidArgument("name", "is empty")
	}
	return client.NewRepo{Name: p.Name, Private: p.Private, AutoInit: p.AutoInit, Description: p.Description}, nil
}

// create checks p and sends it by send.
func (s *ReposService) create(ctx context.Context, p *RepoParams, opts []CallOption,
	send func(context.Context, client.NewRepo, client.MutationOptions) (*client.GitRepo, *client.Response, error)) (*GitRepo, *Response, error) {
	_, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	r, err := p.engine()
	if err != nil {
		return nil, nil, err
	}
	repo, meta, err := send(ctx, r, mo)
	return result[GitRepo](repo, meta, err)
}

// CreateGitHub creates a repository under the connected GitHub account (no
// prop: PropsService.Attach links it).
func (s *ReposService) CreateGitHub(ctx context.Context, p *RepoParams, opts ...CallOption) (*GitRepo, *Response, error) {
	return s.create(ctx, p, opts, s.c.c.Repos.CreateGitHub)
}

// CreateGitea creates a repository on Fibe's Gitea and links it as a new
// prop (GitRepo.Prop).
func (s *ReposService) CreateGitea(ctx context.Context, p *RepoParams, opts ...CallOption) (*GitRepo, *Response, error) {
	return s.create(ctx, p, opts, s.c.c.Repos.CreateGitea)
}

// Status says, for each GitHub URL, whether Fibe can push to it and, when
// it cannot, whether to fork or mirror it. It changes nothing.
func (s *ReposService) Status(ctx context.Context, githubURLs []string) ([]*RepoStatus, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	list, meta, err := s.c.c.Repos.Status(ctx, githubURLs)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	out, err := convertAll[RepoStatus](list)
	return out, newResponse(meta), err
}
