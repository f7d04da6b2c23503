package client

import (
	"encoding/json"
	"time"
)

// Template is an import template (docs/api.md, Templates). Category is the
// category's name; Versions are filled by Get only. Its times are read in
// RFC 3339 or in the form some platform versions send for templates,
// "2026-04-30 13:05:15 UTC".
type Template struct {
	ID               int64             `json:"id"`
	Name             string            `json:"name"`
	Description      string            `json:"description,omitempty"`
	System           bool              `json:"system"`
	Author           string            `json:"author,omitempty"`
	Category         string            `json:"category,omitempty"`
	CategoryID       int64             `json:"category_id,omitempty"`
	ImageURL         string            `json:"image_url,omitempty"`
	Source           *TemplateSource   `json:"source,omitempty"`
	LatestVersion    int64             `json:"latest_version,omitempty"`
	LatestVersionID  int64             `json:"latest_version_id,omitempty"`
	LatestVersionTag string            `json:"latest_version_tag,omitempty"`
	VersionTags      []string          `json:"version_tags,omitempty"`
	Variables        map[string]any    `json:"variables,omitempty"`
	CreatedAt        *time.Time        `json:"created_at,omitempty"`
	UpdatedAt        *time.Time        `json:"updated_at,omitempty"`
	Versions         []TemplateVersion `json:"versions,omitempty"`
}

func (t *Template) UnmarshalJSON(b []byte) error {
	type plain Template
	return unmarshalRubyTimes(b, (*plain)(t), "created_at", "updated_at")
}

// TemplateVersion is one version of a template's body.
type TemplateVersion struct {
	ID                int64                  `json:"id"`
	Version           int64                  `json:"version"`
	Public            bool                   `json:"public"`
	Approved          bool                   `json:"approved,omitempty"`
	GreenfieldDefault bool                   `json:"greenfield_default,omitempty"`
	TemplateBody      string                 `json:"template_body,omitempty"`
	Changelog         string                 `json:"changelog,omitempty"`
	Source            *TemplateVersionSource `json:"source,omitempty"`
	Variables         map[string]any         `json:"variables,omitempty"`
	CreatedAt         *time.Time             `json:"created_at,omitempty"`
}

func (v *TemplateVersion) UnmarshalJSON(b []byte) error {
	type plain TemplateVersion
	return unmarshalRubyTimes(b, (*plain)(v), "created_at")
}

// TemplateSource is the repository file a template is kept in step with.
type TemplateSource struct {
	ID                int64      `json:"id,omitempty"`
	PropID            *int64     `json:"prop_id,omitempty"`
	PropName          string     `json:"prop_name,omitempty"`
	PropRepositoryURL string     `json:"prop_repository_url,omitempty"`
	Path              string     `json:"path"`
	Ref               string     `json:"ref"`
	AutoRefresh       bool       `json:"auto_refresh,omitempty"`
	AutoUpgrade       bool       `json:"auto_upgrade,omitempty"`
	CIEnabled         bool       `json:"ci_enabled,omitempty"`
	CIMarqueeID       *int64     `json:"ci_marquee_id,omitempty"`
	CIMarqueeName     string     `json:"ci_marquee_name,omitempty"`
	LastStatus        string     `json:"last_status,omitempty"`
	LastCommitSHA     string     `json:"last_commit_sha,omitempty"`
	LastContentSHA    string     `json:"last_content_sha,omitempty"`
	LastRefreshedAt   *time.Time `json:"last_refreshed_at,omitempty"`
	LastError         string     `json:"last_error,omitempty"`
}

func (s *TemplateSource) UnmarshalJSON(b []byte) error {
	type plain TemplateSource
	return unmarshalRubyTimes(b, (*plain)(s), "last_refreshed_at")
}

// TemplateVersionSource is where a version read from a source came from.
type TemplateVersionSource struct {
	PropID            *int64 `json:"prop_id,omitempty"`
	PropName          string `json:"prop_name,omitempty"`
	PropRepositoryURL string `json:"prop_repository_url,omitempty"`
	Path              string `json:"path,omitempty"`
	Ref               string `json:"ref,omitempty"`
	CommitSHA         string `json:"commit_sha,omitempty"`
	ContentSHA        string `json:"content_sha,omitempty"`
}

// TemplateCategory is one of the categories templates are filed under.
type TemplateCategory struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// TemplateUpgrade is the result of upgrading the playspecs launched from
// a template to one of its versions.
type TemplateUpgrade struct {
	Success       bool             `json:"success"`
	UpgradedCount int64            `json:"upgraded_count"`
	FailedCount   int64            `json:"failed_count"`
	Results       []map[string]any `json:"results,omitempty"`
	Errors        []string         `json:"errors,omitempty"`
}

// TemplateSourceRefresh is the result of reading a template's source again.
type TemplateSourceRefresh struct {
	Success        bool             `json:"success"`
	VersionCreated bool             `json:"version_created"`
	Version        *TemplateVersion `json:"version,omitempty"`
	Upgrade        map[string]any   `json:"upgrade,omitempty"`
	Errors         []string         `json:"errors,omitempty"`
	Payload        map[string]any   `json:"payload,omitempty"`
	Template       *Template        `json:"template,omitempty"`
}

// LaunchResult is what a launch created: the playspec, the playground
// (0 when none was asked for) and the props registered on the way. A
// template launch also names the playground (ID, Name, Status).
type LaunchResult struct {
	PlayspecID   int64   `json:"playspec_id"`
	PlaygroundID int64   `json:"playground_id,omitempty"`
	PropsCreated []int64 `json:"props_created"`
	ID           int64   `json:"id,omitempty"`
	Name         string  `json:"name,omitempty"`
	Status       string  `json:"status,omitempty"`
}

func (r *LaunchResult) UnmarshalJSON(b []byte) error {
	type plain LaunchResult
	var w struct {
		plain
		Legacy int64 `json:"playspecs_created"` // older servers' name of playspec_id
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = LaunchResult(w.plain)
	if r.PlayspecID == 0 {
		r.PlayspecID = w.Legacy
	}
	return nil
}

// rubyTimeLayout is the form Ruby prints a UTC time in by default.
const rubyTimeLayout = "2006-01-02 15:04:05 MST"

// unmarshalRubyTimes decodes b into out after rewriting the named time
// fields from Ruby's default form into RFC 3339; other forms are left to
// encoding/json.
func unmarshalRubyTimes(b []byte, out any, fields ...string) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return json.Unmarshal(b, out)
	}
	changed := false
	for _, f := range fields {
		var s string
		if json.Unmarshal(raw[f], &s) != nil || s == "" {
			continue
		}
		if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
			continue
		}
		t, err := time.Parse(rubyTimeLayout, s)
		if err != nil {
			continue
		}
		fixed, _ := json.Marshal(t.UTC().Format(time.RFC3339Nano))
		raw[f], changed = fixed, true
	}
	if changed {
		var err error
		if b, err = json.Marshal(raw); err != nil {
			return err
		}
	}
	return json.Unmarshal(b, out)
}
