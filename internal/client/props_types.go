package client

import "time"

// Prop is a linked git repository. The list shows the first fields; get,
// create and update add the detail fields (Branches, OriginalRepositoryURL,
// HasCredentials, ServiceNames). Credentials sent with a prop are
// write-only and never come back.
type Prop struct {
	ID            int64      `json:"id"`
	Name          string     `json:"name"`
	RepositoryURL string     `json:"repository_url"`
	Private       bool       `json:"private"`
	DefaultBranch string     `json:"default_branch,omitempty"`
	Status        string     `json:"status,omitempty"`
	Provider      string     `json:"provider,omitempty"`
	LastSyncedAt  *time.Time `json:"last_synced_at,omitempty"`
	CreatedAt     *time.Time `json:"created_at,omitempty"`
	UpdatedAt     *time.Time `json:"updated_at,omitempty"`

	// Branches are the branch names (strings here, objects on the
	// branches route).
	Branches              []string `json:"branches,omitempty"`
	OriginalRepositoryURL *string  `json:"original_repository_url,omitempty"`
	HasCredentials        *bool    `json:"has_credentials,omitempty"`
	ServiceNames          []string `json:"service_names,omitempty"`
}

// PropBranch is one branch of a prop's repository, from
// GET /api/props/{id}/branches: its name, whether it is the default, and
// what else the server says about it (ahead/behind counts, last commit),
// kept as sent.
type PropBranch struct {
	Name    string `json:"name"`
	Default bool   `json:"default"`
	Ahead   *int   `json:"ahead,omitempty"`
	Behind  *int   `json:"behind,omitempty"`
	// LastCommitSHA is the branch head, when the server says.
	LastCommitSHA string `json:"last_commit_sha,omitempty"`
}

// PropBranches is the answer of the branches route: {"branches": [...]}.
type PropBranches struct {
	Branches []PropBranch `json:"branches"`
}

// PropEnvDefaults are the variables an env file of a prop's branch
// defines: {"defaults": {KEY: value}}.
type PropEnvDefaults struct {
	Defaults map[string]string `json:"defaults"`
}

// SyncResult is the answer of a prop sync: a message, not an operation.
type SyncResult struct {
	Message string `json:"message,omitempty"`
}

// GitRepo is a repository created on a git host through Fibe
// (POST /api/github_repositories, POST /api/gitea_repositories). A Gitea
// repository comes linked as a prop: PropID and Prop say which.
type GitRepo struct {
	ID            int64  `json:"id"`
	Name          string `json:"name"`
	FullName      string `json:"full_name"`
	HTMLURL       string `json:"html_url"`
	CloneURL      string `json:"clone_url,omitempty"`
	SSHURL        string `json:"ssh_url,omitempty"`
	Private       bool   `json:"private"`
	Description   string `json:"description,omitempty"`
	DefaultBranch string `json:"default_branch,omitempty"`
	PropID        int64  `json:"prop_id,omitempty"`
	Prop          *Prop  `json:"prop,omitempty"`
}

// RepoStatus is whether Fibe can push to one GitHub repository, from
// POST /api/repo_status_checks; Status is "ready", "needs_fork",
// "not_writable" or another word the server chooses.
type RepoStatus struct {
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
	RuntimeWritable      *bool  `json:"runtime_writable,omitempty"`
	RuntimeAccessSource  string `json:"runtime_access_source,omitempty"`
	RuntimeAccessMessage string `json:"runtime_access_message,omitempty"`
	GitHubAppInstalled   bool   `json:"github_app_installed"`
	OAuthAccessible      bool   `json:"oauth_accessible"`
	RequiresFork         bool   `json:"requires_fork"`
}

// NewRepo is a repository to create on a git host.
type NewRepo struct {
	Name        string `json:"name"`
	Private     *bool  `json:"private,omitempty"`
	AutoInit    *bool  `json:"auto_init,omitempty"`
	Description string `json:"description,omitempty"`
}
