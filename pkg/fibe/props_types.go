package fibe

import "time"

// Prop is a git repository linked to Fibe. Status is active, syncing or
// error; Provider github or gitea. Get, Create and Update fill the detail
// fields (Branches, OriginalRepositoryURL, HasCredentials, ServiceNames);
// credentials never come back.
type Prop struct {
	ID                    int64      `json:"id"`
	Name                  string     `json:"name"`
	RepositoryURL         string     `json:"repository_url"`
	Private               bool       `json:"private"`
	DefaultBranch         string     `json:"default_branch,omitempty"`
	Status                string     `json:"status,omitempty"`
	Provider              string     `json:"provider,omitempty"`
	LastSyncedAt          *time.Time `json:"last_synced_at,omitempty"`
	CreatedAt             *time.Time `json:"created_at,omitempty"`
	UpdatedAt             *time.Time `json:"updated_at,omitempty"`
	Branches              []string   `json:"branches,omitempty"`
	OriginalRepositoryURL *string    `json:"original_repository_url,omitempty"`
	HasCredentials        *bool      `json:"has_credentials,omitempty"`
	ServiceNames          []string   `json:"service_names,omitempty"`
}

// PropListOptions are ListOptions plus the props' own filters: the git
// host ("github", "gitea") and privacy (nil: both).
type PropListOptions struct {
	ListOptions
	Provider string
	Private  *bool
}

// PropBranch is one branch of a prop's repository.
type PropBranch struct {
	Name          string `json:"name"`
	Default       bool   `json:"default"`
	Ahead         *int   `json:"ahead,omitempty"`
	Behind        *int   `json:"behind,omitempty"`
	LastCommitSHA string `json:"last_commit_sha,omitempty"`
}

// SyncResult is the answer of a prop sync.
type SyncResult struct {
	Message string `json:"message,omitempty"`
}

// RepoParams are a repository to create on a git host.
type RepoParams struct {
	Name        string // required
	Private     *bool
	AutoInit    *bool // give it a first commit on its default branch
	Description string
}

// GitRepo is a repository created through Fibe; a Gitea one comes linked
// as a prop (PropID, Prop).
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

// RepoStatus is whether Fibe can push to one GitHub repository: Status is
// "ready", "needs_fork", "not_writable" or another word the platform
// chooses; ForkURL and Mirrorable say what to do when it cannot.
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
