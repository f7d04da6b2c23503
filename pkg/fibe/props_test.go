package fibe_test

import (
	"testing"

	"github.com/fibegg/fibe/pkg/fibe"
	"github.com/fibegg/fibe/pkg/fibetest"
)

func totalRequests(srv *fibetest.Server) int {
	n := 0
	for _, byStatus := range srv.Stats().Requests {
		n += sum(byStatus)
	}
	return n
}

func TestPropsService(t *testing.T) {
	srv := server(t)
	c := srv.Client(fast)
	ctx := ctxT(t)

	repo, _, err := c.Repos.CreateGitea(ctx, &fibe.RepoParams{Name: "app", AutoInit: new(true)})
	if err != nil || repo.Prop == nil || repo.PropID != repo.Prop.ID || repo.Prop.Provider != "gitea" {
		t.Fatalf("CreateGitea: %+v, %v", repo, err)
	}
	p, _, err := c.Props.Get(ctx, repo.Prop.Name)
	if err != nil || p.DefaultBranch != "main" || len(p.Branches) != 1 {
		t.Fatalf("Get: %+v, %v", p, err)
	}
	private := false
	p, _, err = c.Props.Update(ctx, p.Name, &fibe.PropUpdateParams{Name: "app-2", Private: &private})
	if err != nil || p.Name != "app-2" || p.Private {
		t.Fatalf("Update: %+v, %v", p, err)
	}

	list, resp, err := c.Props.List(ctx, &fibe.PropListOptions{Provider: "gitea", ListOptions: fibe.ListOptions{Sort: "name_asc"}})
	if err != nil || len(list) != 1 || list[0].Name != "app-2" || resp.Page().Total != 1 {
		t.Fatalf("List gitea: %v, %v", list, err)
	}
	list, _, err = c.Props.List(ctx, &fibe.PropListOptions{Private: &private})
	if err != nil || len(list) != 2 {
		t.Fatalf("List public: %v, %v", list, err)
	}

	branches, err := c.Props.Branches(ctx, "demo-app", "", 0)
	if err != nil || len(branches) != 2 || !branches[0].Default {
		t.Fatalf("Branches: %v, %v", branches, err)
	}
	defaults, err := c.Props.EnvDefaults(ctx, "demo-app", "main", "")
	if err != nil || defaults["PORT"] != "3000" {
		t.Fatalf("EnvDefaults: %v, %v", defaults, err)
	}
	if sr, _, err := c.Props.Sync(ctx, "app-2"); err != nil || sr.Message == "" {
		t.Fatalf("Sync: %+v, %v", sr, err)
	}

	if _, _, err := c.Repos.CreateGitHub(ctx, &fibe.RepoParams{Name: "lib"}); err != nil {
		t.Fatal(err)
	}
	if p, _, err := c.Props.Attach(ctx, "local-dev/lib"); err != nil || p.Provider != "github" {
		t.Fatalf("Attach: %+v, %v", p, err)
	}
	m, _, err := c.Props.Mirror(ctx, "https://github.com/nginx/nginx", "")
	if err != nil || m.OriginalRepositoryURL == nil || *m.OriginalRepositoryURL != "https://github.com/nginx/nginx" {
		t.Fatalf("Mirror: %+v, %v", m, err)
	}
	statuses, _, err := c.Repos.Status(ctx, []string{"https://github.com/nginx/nginx", "https://github.com/local-dev/lib"})
	if err != nil || len(statuses) != 2 || statuses[0].Status != "needs_fork" || statuses[1].Status != "ready" {
		t.Fatalf("Status: %+v, %v", statuses, err)
	}

	_, _, err = c.Props.Create(ctx, &fibe.PropCreateParams{RepositoryURL: "https://github.com/nginx/nginx"})
	if e := asError(t, err); e.Code != fibe.CodeValidationFailed {
		t.Fatalf("create of a foreign repository: %v", err)
	}
	if _, err := c.Props.Delete(ctx, "app-2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Props.Get(ctx, "app-2"); asError(t, err).Code != fibe.CodeResourceNotFound {
		t.Fatalf("get after delete: %v", err)
	}
}

// Bad input is refused before anything is sent.
func TestPropsServiceRefusesBadInput(t *testing.T) {
	srv := server(t)
	c := srv.Client(fast)
	ctx := ctxT(t)
	before := totalRequests(srv)
	for name, call := range map[string]func() error{
		"create without url": func() error { _, _, err := c.Props.Create(ctx, &fibe.PropCreateParams{}); return err },
		"bad provider": func() error {
			_, _, err := c.Props.Create(ctx, &fibe.PropCreateParams{RepositoryURL: "https://github.com/a/b", Provider: "svn"})
			return err
		},
		"list provider": func() error {
			_, _, err := c.Props.List(ctx, &fibe.PropListOptions{Provider: "svn"})
			return err
		},
		"attach":       func() error { _, _, err := c.Props.Attach(ctx, "no-slash"); return err },
		"mirror":       func() error { _, _, err := c.Props.Mirror(ctx, "not-a-url", ""); return err },
		"env branch":   func() error { _, err := c.Props.EnvDefaults(ctx, "demo-app", " ", ""); return err },
		"empty ref":    func() error { _, err := c.Props.Branches(ctx, "", "", 0); return err },
		"repo no name": func() error { _, _, err := c.Repos.CreateGitea(ctx, &fibe.RepoParams{}); return err },
	} {
		if e := asError(t, call()); e.Code != fibe.CodeInvalidArgument {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", name, e)
		}
	}
	if after := totalRequests(srv); after != before {
		t.Fatalf("%d requests were sent for bad input", after-before)
	}
}
