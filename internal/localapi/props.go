package localapi

import (
	"crypto/sha1"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Props are linked git repositories (docs/api.md, Props). The emulator has
// no git host: it keeps a small world of repositories instead (gitRepo).
// A repository under the player's own namespace (their username, on
// github.com or on the emulated Gitea host) is theirs and writable; one
// under any other owner is not, and linking it answers 422 asking for a
// fork or a mirror, as the platform does when it cannot push.

// propState is the players' props and the repositories behind them.
type propState struct {
	Props    []*prop    `json:"props"`
	GitRepos []*gitRepo `json:"git_repos"`
}

// The hosts of the emulated world.
const (
	githubHost = "github.com"
	giteaHost  = "gitea.fibe.test"
)

var (
	propStatuses  = []string{"active", "syncing", "error"}
	propProviders = []string{"github", "gitea"}
)

// defaultEnvFile is the file env_defaults reads when none is named.
const defaultEnvFile = ".env.example"

// prop is one linked repository of a player. Credentials sent with it are
// write-only: only the fact that some are set is kept.
type prop struct {
	ID             int64      `json:"id"`
	Owner          int64      `json:"owner"`
	Name           string     `json:"name"`
	RepositoryURL  string     `json:"repository_url"`
	Private        bool       `json:"private"`
	DefaultBranch  string     `json:"default_branch"`
	Status         string     `json:"status"`
	Provider       string     `json:"provider"`
	OriginalURL    string     `json:"original_repository_url,omitempty"`
	HasCredentials bool       `json:"has_credentials"`
	RepoID         int64      `json:"repo_id"`
	LastSyncedAt   *time.Time `json:"last_synced_at,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

func (p *prop) identity() (int64, string) { return p.ID, p.Name }
func (p *prop) owner() int64              { return p.Owner }

// gitRepo is a repository of the emulated world, on githubHost or
// giteaHost, under Namespace (its owner's username).
type gitRepo struct {
	ID            int64    `json:"id"`
	Owner         int64    `json:"owner"`
	Host          string   `json:"host"`
	Namespace     string   `json:"namespace"`
	Name          string   `json:"name"`
	Private       bool     `json:"private"`
	Description   string   `json:"description"`
	DefaultBranch string   `json:"default_branch"`
	Branches      []string `json:"branches"`
	// EnvFiles are the env files of every branch, by path: KEY → value.
	EnvFiles  map[string]map[string]string `json:"env_files,omitempty"`
	CreatedAt time.Time                    `json:"created_at"`
}

func (r *gitRepo) fullName() string { return r.Namespace + "/" + r.Name }
func (r *gitRepo) htmlURL() string  { return "https://" + r.Host + "/" + r.fullName() }
func (r *gitRepo) provider() string {
	if r.Host == giteaHost {
		return "gitea"
	}
	return "github"
}

// repoPath is a repository URL taken apart.
type repoPath struct{ host, owner, name string }

func (p repoPath) fullName() string { return p.owner + "/" + p.name }

var repoNamePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)
})

// parseRepoURL reads https://host/owner/name[.git] or git@host:owner/name.git.
func parseRepoURL(raw string) (repoPath, bool) {
	raw = strings.TrimSpace(raw)
	var host, path string
	if rest, ok := strings.CutPrefix(raw, "git@"); ok {
		host, path, ok = strings.Cut(rest, ":")
		if !ok {
			return repoPath{}, false
		}
	} else {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" {
			return repoPath{}, false
		}
		host, path = u.Host, u.Path
	}
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) != 2 {
		return repoPath{}, false
	}
	owner, name := parts[0], strings.TrimSuffix(parts[1], ".git")
	if !repoNamePattern().MatchString(owner) || !repoNamePattern().MatchString(name) {
		return repoPath{}, false
	}
	return repoPath{host: strings.ToLower(host), owner: owner, name: name}, true
}

// hostProvider is the provider of a host of the emulated world ("" for
// another host).
func hostProvider(host string) string {
	switch host {
	case githubHost, "www.github.com":
		return "github"
	case giteaHost:
		return "gitea"
	}
	return ""
}

func canonicalHost(provider string) string {
	if provider == "gitea" {
		return giteaHost
	}
	return githubHost
}

// username is the namespace of player on both hosts.
func (st *state) username(player int64) string {
	if p := st.playerByID(player); p != nil {
		return p.Username
	}
	return "player-" + strconv.FormatInt(player, 10)
}

// repo finds a repository of the world.
func (st *state) repo(host, namespace, name string) *gitRepo {
	for _, r := range st.GitRepos {
		if r.Host == host && strings.EqualFold(r.Namespace, namespace) && strings.EqualFold(r.Name, name) {
			return r
		}
	}
	return nil
}

func (st *state) repoByID(id int64) *gitRepo {
	for _, r := range st.GitRepos {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// newRepo adds a repository of player's to the world; autoInit gives it
// one branch (its default), as a first commit does.
func (st *state) newRepo(player int64, host, name string, private, autoInit bool, description string, now time.Time) *gitRepo {
	r := &gitRepo{ID: st.nextID("git_repo"), Owner: player, Host: host, Namespace: st.username(player), Name: name,
		Private: private, Description: description, DefaultBranch: "main", Branches: []string{}, CreatedAt: now}
	if autoInit {
		r.Branches = []string{"main"}
	}
	st.GitRepos = append(st.GitRepos, r)
	return r
}

// seedProps gives a new player a GitHub repository with two branches and
// an env file, linked as the prop "demo-app".
func (st *state) seedProps(player int64, now time.Time) {
	r := st.newRepo(player, githubHost, "demo-app", false, true, "Demo application", now)
	r.Branches = []string{"main", "develop"}
	r.EnvFiles = map[string]map[string]string{defaultEnvFile: {
		"PORT": "3000", "RAILS_ENV": "development", "DATABASE_URL": "postgres://postgres@db:5432/demo",
	}}
	synced := now
	st.Props = append(st.Props, &prop{ID: st.nextID("prop"), Owner: player, Name: "demo-app", RepositoryURL: r.htmlURL(),
		DefaultBranch: "main", Status: "active", Provider: "github", RepoID: r.ID,
		LastSyncedAt: &synced, CreatedAt: now, UpdatedAt: now})
}

func (s *Server) propRoutes(rt *router) {
	rt.add("GET", "/api/props", "props:read", s.listProps)
	rt.add("POST", "/api/props", "props:write", s.createProp)
	rt.add("POST", "/api/props/attachments", "props:write", s.attachProp)
	rt.add("POST", "/api/props/mirrors", "props:write", s.mirrorProp)
	rt.add("GET", "/api/props/{id}", "props:read", s.getProp)
	rt.add("PATCH", "/api/props/{id}", "props:write", s.updateProp)
	rt.add("PUT", "/api/props/{id}", "props:write", s.updateProp)
	rt.add("DELETE", "/api/props/{id}", "props:delete", s.deleteProp)
	rt.add("POST", "/api/props/{id}/syncs", "props:write", s.syncProp)
	rt.add("GET", "/api/props/{id}/branches", "props:read", s.propBranches)
	rt.add("GET", "/api/props/{id}/env_defaults", "props:read", s.propEnvDefaults)

	rt.add("POST", "/api/gitea_repositories", "props:write", s.createGiteaRepo)
	rt.add("POST", "/api/github_repositories", "props:write", s.createGitHubRepo)
	rt.add("POST", "/api/repo_status_checks", "props:read", s.repoStatusChecks)
}

// propView is a prop as the list shows it.
type propView struct {
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	RepositoryURL string     `json:"repository_url"`
	Private       bool       `json:"private"`
	DefaultBranch string     `json:"default_branch"`
	Status        string     `json:"status"`
	Provider      string     `json:"provider"`
	LastSyncedAt  *time.Time `json:"last_synced_at"`
	CreatedAt     time.Time  `json:"created_at"`
	UpdatedAt     time.Time  `json:"updated_at"`
}

// propDetail is one prop as get, create and update answer it.
type propDetail struct {
	propView
	Branches       []string `json:"branches"`
	OriginalURL    *string  `json:"original_repository_url"`
	HasCredentials bool     `json:"has_credentials"`
	ServiceNames   []string `json:"service_names"`
}

func (p *prop) view() propView {
	return propView{ID: p.ID, Name: p.Name, RepositoryURL: p.RepositoryURL, Private: p.Private,
		DefaultBranch: p.DefaultBranch, Status: p.Status, Provider: p.Provider, LastSyncedAt: p.LastSyncedAt,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

func (st *state) propDetail(p *prop) propDetail {
	d := propDetail{propView: p.view(), Branches: []string{}, HasCredentials: p.HasCredentials, ServiceNames: []string{}}
	if r := st.repoByID(p.RepoID); r != nil {
		d.Branches = slices.Clone(r.Branches)
	}
	if p.OriginalURL != "" {
		u := p.OriginalURL
		d.OriginalURL = &u
	}
	return d
}

// pathProp resolves the {id} of the path among the player's props.
func (rc *reqCtx) pathProp() (*prop, error) {
	p := findOwned(rc.st.Props, rc.player, rc.param(0))
	if p == nil {
		return nil, notFound("prop " + strconv.Quote(rc.param(0)))
	}
	return p, nil
}

func (s *Server) listProps(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "name"}, statuses: propStatuses})
	if err != nil {
		return nil, err
	}
	q := rc.c.query
	provider := q.Get("provider")
	if provider != "" && !slices.Contains(propProviders, provider) {
		return nil, invalid("provider", "is not included in the list ("+strings.Join(propProviders, ", ")+")")
	}
	private, err := boolParam(q, "private")
	if err != nil {
		return nil, err
	}
	var kept []*prop
	for _, p := range ownedBy(rc.st.Props, rc.player) {
		if lq.has("name", p.Name) && lq.search(p.Name, p.RepositoryURL) && lq.inTime(p.CreatedAt) &&
			lq.hasStatus(p.Status) && (provider == "" || p.Provider == provider) &&
			(private == nil || p.Private == *private) {
			kept = append(kept, p)
		}
	}
	views := make([]propView, 0, len(kept))
	for _, p := range kept {
		views = append(views, p.view())
	}
	return listAnswer(views, lq, func(v propView, col string) any {
		switch col {
		case "name":
			return v.Name
		case "created_at":
			return v.CreatedAt
		}
		return v.ID
	}), nil
}

func (s *Server) getProp(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, rc.st.propDetail(p)), nil
}

func (s *Server) createProp(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("prop")
	if err != nil {
		return nil, err
	}
	raw, _, err := str(obj, "repository_url")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(raw) == "" {
		return nil, invalid("repository_url", "can't be blank")
	}
	p := &prop{Owner: rc.player, Status: "active", CreatedAt: rc.now, UpdatedAt: rc.now}
	if err := rc.propFields(obj, p, true); err != nil {
		return nil, err
	}
	return rc.addProp(p)
}

// addProp gives p an id (and a name, when it has none) and answers 201.
func (rc *reqCtx) addProp(p *prop) (*reply, error) {
	p.ID = rc.st.nextID("prop")
	if p.Name == "" {
		p.Name = rc.st.freePropName(rc.player, p.RepositoryURL, p.ID)
	}
	rc.st.Props = append(rc.st.Props, p)
	d := rc.st.propDetail(p)
	rc.emit("prop.created", "Prop", p.ID, d)
	return jsonReply(http.StatusCreated, d), nil
}

// freePropName derives a name from a repository URL that none of the
// player's props has.
func (st *state) freePropName(player int64, repoURL string, id int64) string {
	base := ""
	if rp, ok := parseRepoURL(repoURL); ok {
		base = slugName(rp.name)
	}
	if base == "" || isNumeric(base) {
		base = "prop-" + strconv.FormatInt(id, 10)
	}
	name := base
	for n := 2; findOwned(st.Props, player, name) != nil; n++ {
		suffix := "-" + strconv.Itoa(n)
		name = strings.TrimRight(base[:min(len(base), 63-len(suffix))], "-") + suffix
	}
	return name
}

// slugName lowercases a repository name into the prop name rules.
func slugName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	if len(out) > 63 {
		out = strings.TrimRight(out[:63], "-")
	}
	return out
}

// propFields reads the writable fields into p (create and update). The
// repository must be one the player can push to.
func (rc *reqCtx) propFields(obj map[string]any, p *prop, creating bool) error {
	if name, ok, err := str(obj, "name"); err != nil {
		return err
	} else if ok && (creating && name != "" || !creating) {
		if err := validateName(name); err != nil {
			return err
		}
		if other := findOwned(rc.st.Props, rc.player, name); other != nil && other.ID != p.ID {
			return invalid("name", "has already been taken")
		}
		p.Name = name
	}
	provider, providerSet, err := str(obj, "provider")
	if err != nil {
		return err
	}
	if providerSet && !slices.Contains(propProviders, provider) {
		return invalid("provider", "is not included in the list ("+strings.Join(propProviders, ", ")+")")
	}
	var added *gitRepo // a repository to add to the world once all is valid
	if raw, ok, err := str(obj, "repository_url"); err != nil {
		return err
	} else if ok {
		r, err := rc.writableRepo(raw, provider, p)
		if err != nil {
			return err
		}
		if r.ID == 0 {
			added = r
		}
		p.RepoID, p.RepositoryURL, p.Provider = r.ID, strings.TrimSpace(raw), r.provider()
		if _, set := obj["private"]; !set && creating {
			p.Private = r.Private
		}
		if p.DefaultBranch == "" {
			p.DefaultBranch = r.DefaultBranch
		}
	} else if providerSet && provider != p.Provider {
		return invalid("provider", "does not match the repository's host")
	}
	if _, set := obj["private"]; set {
		b, err := boolean(obj, "private")
		if err != nil {
			return err
		}
		p.Private = b
	}
	if branch, ok, err := str(obj, "default_branch"); err != nil {
		return err
	} else if ok {
		if !validBranch(branch) {
			return invalid("default_branch", "is not a valid branch name")
		}
		p.DefaultBranch = branch
	}
	if v, set := obj["credentials"]; set && v != nil {
		creds, ok := v.(map[string]any)
		if !ok {
			return invalid("credentials", "must be an object")
		}
		// Write-only: remember that some are set, never what they are.
		p.HasCredentials = len(creds) > 0
	}
	if added != nil {
		added.ID = rc.st.nextID("git_repo")
		rc.st.GitRepos = append(rc.st.GitRepos, added)
		p.RepoID = added.ID
	}
	return nil
}

// writableRepo is the repository of the world at raw, which the player can
// push to. One under the player's own namespace that the world does not
// hold yet is returned with no id, for the caller to add (the emulator
// has no host to ask).
func (rc *reqCtx) writableRepo(raw, provider string, self *prop) (*gitRepo, error) {
	rp, ok := parseRepoURL(raw)
	if !ok {
		return nil, invalid("repository_url", "is not a repository URL (https://host/owner/repo)")
	}
	host := hostProvider(rp.host)
	if host == "" {
		return nil, invalid("repository_url", "must be on github.com or "+giteaHost)
	}
	if provider != "" && provider != host {
		return nil, invalid("provider", "does not match the repository's host ("+rp.host+")")
	}
	if !strings.EqualFold(rp.owner, rc.st.username(rc.player)) {
		return nil, invalid("repository_url", "is not writable: Fibe cannot push to "+rp.fullName()+
			"; fork it to your account or mirror it (POST /api/props/mirrors) first")
	}
	r := rc.st.repo(canonicalHost(host), rp.owner, rp.name)
	if r == nil {
		// Not in the world yet: added once the whole request is valid.
		return &gitRepo{Owner: rc.player, Host: canonicalHost(host), Namespace: rc.st.username(rc.player), Name: rp.name,
			DefaultBranch: "main", Branches: []string{"main"}, CreatedAt: rc.now}, nil
	}
	for _, other := range ownedBy(rc.st.Props, rc.player) {
		if (self == nil || other.ID != self.ID) && other.RepoID == r.ID {
			return nil, invalid("repository_url", "is already linked as prop "+strconv.Quote(other.Name))
		}
	}
	return r, nil
}

func validBranch(b string) bool {
	return b != "" && len(b) <= 255 && !strings.ContainsAny(b, " \t\n~^:?*[\\") && !strings.Contains(b, "..") &&
		!strings.HasPrefix(b, "/") && !strings.HasSuffix(b, "/")
}

func (s *Server) updateProp(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("prop")
	if err != nil {
		return nil, err
	}
	next := *p
	if err := rc.propFields(obj, &next, false); err != nil {
		return nil, err
	}
	next.UpdatedAt = rc.now
	*p = next
	d := rc.st.propDetail(p)
	rc.emit("prop.updated", "Prop", p.ID, d)
	return jsonReply(http.StatusOK, d), nil
}

func (s *Server) deleteProp(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	rc.st.Props = slices.DeleteFunc(rc.st.Props, func(x *prop) bool { return x == p })
	rc.emit("prop.destroyed", "Prop", p.ID, p.view())
	return newReply(http.StatusNoContent), nil
}

// attachProp links a GitHub repository of the player's by its full name.
func (s *Server) attachProp(rc *reqCtx) (*reply, error) {
	full, _, err := str(rc.body, "repo_full_name")
	if err != nil {
		return nil, err
	}
	full = strings.TrimSpace(full)
	if full == "" {
		return nil, invalid("repo_full_name", "can't be blank")
	}
	owner, name, ok := strings.Cut(full, "/")
	if !ok || !repoNamePattern().MatchString(owner) || !repoNamePattern().MatchString(name) {
		return nil, invalid("repo_full_name", "must be owner/repository")
	}
	r := rc.st.repo(githubHost, owner, name)
	if r == nil || (r.Owner != rc.player && r.Private) {
		return nil, notFound("GitHub repository " + strconv.Quote(full))
	}
	p := &prop{Owner: rc.player, Status: "active", CreatedAt: rc.now, UpdatedAt: rc.now}
	if _, err := rc.writableRepo(r.htmlURL(), "github", nil); err != nil {
		return nil, err
	}
	p.RepoID, p.RepositoryURL, p.Provider, p.Private, p.DefaultBranch = r.ID, r.htmlURL(), "github", r.Private, r.DefaultBranch
	return rc.addProp(p)
}

// mirrorProp copies a repository of any owner into a new Gitea repository
// of the player's and links that.
func (s *Server) mirrorProp(rc *reqCtx) (*reply, error) {
	src, _, err := str(rc.body, "source_url")
	if err != nil {
		return nil, err
	}
	src = strings.TrimSpace(src)
	if src == "" {
		return nil, invalid("source_url", "can't be blank")
	}
	rp, ok := parseRepoURL(src)
	if !ok || strings.HasPrefix(src, "git@") {
		return nil, invalid("source_url", "is not a repository URL (https://host/owner/repo)")
	}
	name, nameSet, err := str(rc.body, "name")
	if err != nil {
		return nil, err
	}
	if nameSet && name != "" {
		if err := validateName(name); err != nil {
			return nil, err
		}
		if findOwned(rc.st.Props, rc.player, name) != nil {
			return nil, invalid("name", "has already been taken")
		}
	}
	repoName := rp.name
	if name != "" {
		repoName = name
	}
	if rc.st.repo(giteaHost, rc.st.username(rc.player), repoName) != nil {
		return nil, invalid("name", "is already a repository of yours on "+giteaHost)
	}
	mirror := rc.st.newRepo(rc.player, giteaHost, repoName, false, true, "Mirror of "+src, rc.now)
	if source := rc.st.repo(canonicalHost(hostProvider(rp.host)), rp.owner, rp.name); source != nil &&
		(source.Owner == rc.player || !source.Private) {
		mirror.Branches, mirror.DefaultBranch = slices.Clone(source.Branches), source.DefaultBranch
		mirror.EnvFiles = source.EnvFiles
	}
	synced := rc.now
	p := &prop{Owner: rc.player, Name: name, Status: "active", Provider: "gitea", RepoID: mirror.ID,
		RepositoryURL: mirror.htmlURL(), DefaultBranch: mirror.DefaultBranch, OriginalURL: src,
		LastSyncedAt: &synced, CreatedAt: rc.now, UpdatedAt: rc.now}
	return rc.addProp(p)
}

// syncProp fetches the repository again: in the emulator, at once.
func (s *Server) syncProp(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	synced := rc.now
	p.LastSyncedAt, p.Status, p.UpdatedAt = &synced, "active", rc.now
	rc.emit("prop.updated", "Prop", p.ID, rc.st.propDetail(p))
	return jsonReply(http.StatusOK, map[string]any{"message": "Sync scheduled"}), nil
}

// branchView is one entry of GET /api/props/{id}/branches.
type branchView struct {
	Name          string `json:"name"`
	Default       bool   `json:"default"`
	Ahead         int    `json:"ahead"`
	Behind        int    `json:"behind"`
	LastCommitSHA string `json:"last_commit_sha"`
}

func (s *Server) propBranches(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	q := rc.c.query
	limit := 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return nil, invalid("limit", "must be an integer between 1 and 1000")
		}
		limit = n
	}
	query := strings.ToLower(q.Get("query"))
	out := []branchView{}
	if r := rc.st.repoByID(p.RepoID); r != nil {
		for _, b := range r.Branches {
			if query != "" && !strings.Contains(strings.ToLower(b), query) {
				continue
			}
			if limit > 0 && len(out) == limit {
				break
			}
			sum := sha1.Sum([]byte(r.htmlURL() + "@" + b))
			out = append(out, branchView{Name: b, Default: b == p.DefaultBranch, LastCommitSHA: hex.EncodeToString(sum[:])})
		}
	}
	return jsonReply(http.StatusOK, map[string]any{"branches": out}), nil
}

func (s *Server) propEnvDefaults(rc *reqCtx) (*reply, error) {
	p, err := rc.pathProp()
	if err != nil {
		return nil, err
	}
	q := rc.c.query
	branch := q.Get("branch")
	if strings.TrimSpace(branch) == "" {
		return nil, invalid("branch", "can't be blank")
	}
	path := q.Get("env_file_path")
	if path == "" {
		path = defaultEnvFile
	}
	if len(path) > 255 || strings.HasPrefix(path, "/") || slices.Contains(strings.Split(path, "/"), "..") {
		return nil, invalid("env_file_path", "must be a relative path inside the repository")
	}
	r := rc.st.repoByID(p.RepoID)
	if r == nil || !slices.Contains(r.Branches, branch) {
		return nil, notFound("branch " + strconv.Quote(branch) + " of prop " + strconv.Quote(p.Name))
	}
	defaults := map[string]string{}
	for k, v := range r.EnvFiles[path] {
		defaults[k] = v
	}
	return jsonReply(http.StatusOK, map[string]any{"defaults": defaults}), nil
}

// repoParams reads the body of a new repository (not wrapped).
func (rc *reqCtx) repoParams(host string) (name string, private, autoInit bool, description string, err error) {
	name, _, err = str(rc.body, "name")
	if err != nil {
		return
	}
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		err = invalid("name", "can't be blank")
	case !repoNamePattern().MatchString(name) || strings.HasSuffix(name, ".git"):
		err = invalid("name", "is invalid (letters, digits, '.', '-' and '_', at most 100)")
	case rc.st.repo(host, rc.st.username(rc.player), name) != nil:
		err = invalid("name", "is already a repository of yours on "+host)
	}
	if err != nil {
		return
	}
	if private, err = boolean(rc.body, "private"); err != nil {
		return
	}
	if autoInit, err = boolean(rc.body, "auto_init"); err != nil {
		return
	}
	description, _, err = str(rc.body, "description")
	if err == nil && len(description) > 2000 {
		err = invalid("description", "is too long (at most 2000 characters)")
	}
	return
}

// repoView is a repository as the repository routes answer it.
type repoView struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	FullName      string `json:"full_name"`
	HTMLURL       string `json:"html_url"`
	CloneURL      string `json:"clone_url"`
	SSHURL        string `json:"ssh_url"`
	Private       bool   `json:"private"`
	Description   string `json:"description"`
	DefaultBranch string `json:"default_branch"`
}

func (r *gitRepo) view() repoView {
	return repoView{ID: r.ID, Name: r.Name, FullName: r.fullName(), HTMLURL: r.htmlURL(), CloneURL: r.htmlURL() + ".git",
		SSHURL: "git@" + r.Host + ":" + r.fullName() + ".git", Private: r.Private, Description: r.Description,
		DefaultBranch: r.DefaultBranch}
}

// createGitHubRepo creates a repository under the player's GitHub account
// (no prop: attach links it).
func (s *Server) createGitHubRepo(rc *reqCtx) (*reply, error) {
	name, private, autoInit, desc, err := rc.repoParams(githubHost)
	if err != nil {
		return nil, err
	}
	r := rc.st.newRepo(rc.player, githubHost, name, private, autoInit, desc, rc.now)
	return jsonReply(http.StatusCreated, r.view()), nil
}

// createGiteaRepo creates a repository on the Gitea host and links it as a
// new prop.
func (s *Server) createGiteaRepo(rc *reqCtx) (*reply, error) {
	name, private, autoInit, desc, err := rc.repoParams(giteaHost)
	if err != nil {
		return nil, err
	}
	r := rc.st.newRepo(rc.player, giteaHost, name, private, autoInit, desc, rc.now)
	p := &prop{ID: rc.st.nextID("prop"), Owner: rc.player, Status: "active", Provider: "gitea", RepoID: r.ID,
		RepositoryURL: r.htmlURL(), Private: private, DefaultBranch: r.DefaultBranch, CreatedAt: rc.now, UpdatedAt: rc.now}
	p.Name = rc.st.freePropName(rc.player, p.RepositoryURL, p.ID)
	rc.st.Props = append(rc.st.Props, p)
	d := rc.st.propDetail(p)
	rc.emit("prop.created", "Prop", p.ID, d)
	return jsonReply(http.StatusCreated, struct {
		repoView
		Repo   repoView   `json:"repo"`
		PropID int64      `json:"prop_id"`
		Prop   propDetail `json:"prop"`
	}{r.view(), r.view(), p.ID, d}), nil
}

// repoStatus is one entry of POST /api/repo_status_checks.
type repoStatus struct {
	URL                  string `json:"url"`
	Status               string `json:"status"`
	Error                string `json:"error,omitempty"`
	PropID               int64  `json:"prop_id,omitempty"`
	PropName             string `json:"prop_name,omitempty"`
	GitHubURL            string `json:"github_url,omitempty"`
	PlayerRepo           string `json:"player_repo,omitempty"`
	PlayerRepoURL        string `json:"player_repo_url,omitempty"`
	DefaultBranch        string `json:"default_branch,omitempty"`
	ForkURL              string `json:"fork_url,omitempty"`
	SourceFullName       string `json:"source_full_name,omitempty"`
	Mirrorable           bool   `json:"mirrorable"`
	RuntimeWritable      bool   `json:"runtime_writable"`
	RuntimeAccessSource  string `json:"runtime_access_source,omitempty"`
	RuntimeAccessMessage string `json:"runtime_access_message,omitempty"`
	GitHubAppInstalled   bool   `json:"github_app_installed"`
	OAuthAccessible      bool   `json:"oauth_accessible"`
	RequiresFork         bool   `json:"requires_fork"`
}

// maxRepoStatusURLs bounds one check.
const maxRepoStatusURLs = 50

func (s *Server) repoStatusChecks(rc *reqCtx) (*reply, error) {
	raw, ok := rc.body["github_urls"]
	if !ok || raw == nil {
		return nil, invalid("github_urls", "can't be blank")
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, invalid("github_urls", "must be an array of URLs")
	}
	if len(list) > maxRepoStatusURLs {
		return nil, invalid("github_urls", "has too many URLs (at most "+strconv.Itoa(maxRepoStatusURLs)+")")
	}
	out := make([]repoStatus, 0, len(list))
	for _, v := range list {
		u, ok := v.(string)
		if !ok {
			return nil, invalid("github_urls", "must be an array of URLs")
		}
		out = append(out, rc.repoStatusOf(u))
	}
	return jsonReply(http.StatusOK, map[string]any{"repos": out}), nil
}

// repoStatusOf says whether the player's runtime can push to the GitHub
// repository at u, and what to do when it cannot.
func (rc *reqCtx) repoStatusOf(u string) repoStatus {
	rs := repoStatus{URL: u}
	rp, ok := parseRepoURL(u)
	if !ok || hostProvider(rp.host) != "github" {
		rs.Status, rs.Error = "invalid", "not a GitHub repository URL (https://github.com/owner/repo)"
		return rs
	}
	me := rc.st.username(rc.player)
	rs.GitHubURL = "https://" + githubHost + "/" + rp.fullName()
	rs.SourceFullName = rp.fullName()
	rs.OAuthAccessible, rs.GitHubAppInstalled = true, true
	mine := rc.st.repo(githubHost, me, rp.name)
	if strings.EqualFold(rp.owner, me) {
		if mine == nil {
			rs.Status, rs.Error = "not_found", "repository "+rp.fullName()+" does not exist"
			return rs
		}
	} else {
		source := rc.st.repo(githubHost, rp.owner, rp.name)
		rs.Mirrorable = source == nil || !source.Private
		rs.ForkURL = "https://" + githubHost + "/" + me + "/" + rp.name
		if mine == nil {
			rs.Status, rs.RequiresFork = "needs_fork", true
			rs.RuntimeAccessSource = "none"
			rs.RuntimeAccessMessage = "your account cannot push to " + rp.fullName() + "; fork it or mirror it"
			rs.DefaultBranch = "main"
			return rs
		}
	}
	rs.Status, rs.RuntimeWritable, rs.RuntimeAccessSource = "ready", true, "owner"
	rs.PlayerRepo, rs.PlayerRepoURL, rs.DefaultBranch = mine.fullName(), mine.htmlURL(), mine.DefaultBranch
	for _, p := range ownedBy(rc.st.Props, rc.player) {
		if p.RepoID == mine.ID {
			rs.PropID, rs.PropName = p.ID, p.Name
			break
		}
	}
	return rs
}
