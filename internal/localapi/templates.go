package localapi

import (
	"encoding/base64"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Import templates, their versions and categories (docs/api.md,
// Templates). A template belongs to a player; system templates (seeded)
// belong to nobody and every player sees them. Another player's template
// is seen only once it has a public version (that is what publishing
// means: it can then be read, launched and forked), and is never changed:
// a write to it answers 404 like an unknown one.

// templateState is the import templates and the categories they are filed
// under.
type templateState struct {
	Templates          []*importTemplate   `json:"templates"`
	TemplateCategories []*templateCategory `json:"template_categories"`
}

type templateCategory struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

type importTemplate struct {
	ID          int64              `json:"id"`
	Owner       int64              `json:"owner"` // 0: a system template
	Name        string             `json:"name"`
	Description string             `json:"description"`
	System      bool               `json:"system"`
	CategoryID  int64              `json:"category_id"`
	ImageURL    string             `json:"image_url,omitempty"`
	Source      *templateSource    `json:"source,omitempty"`
	Versions    []*templateVersion `json:"versions"`
	CreatedAt   time.Time          `json:"created_at"`
	UpdatedAt   time.Time          `json:"updated_at"`
}

func (t *importTemplate) identity() (int64, string) { return t.ID, t.Name }
func (t *importTemplate) owner() int64              { return t.Owner }

type templateVersion struct {
	ID           int64     `json:"id"`
	Version      int64     `json:"version"`
	Public       bool      `json:"public"`
	TemplateBody string    `json:"template_body"`
	Changelog    *string   `json:"changelog,omitempty"`
	FromSource   bool      `json:"from_source,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

type templateSource struct {
	ID              int64      `json:"id"`
	PropRef         string     `json:"prop_ref"`
	Path            string     `json:"path"`
	Ref             string     `json:"ref"`
	AutoRefresh     bool       `json:"auto_refresh"`
	AutoUpgrade     bool       `json:"auto_upgrade"`
	CIEnabled       bool       `json:"ci_enabled"`
	CIMarqueeID     *int64     `json:"ci_marquee_id,omitempty"`
	LastStatus      string     `json:"last_status,omitempty"`
	LastCommitSHA   string     `json:"last_commit_sha,omitempty"`
	LastRefreshedAt *time.Time `json:"last_refreshed_at,omitempty"`
}

// Platform durations at speed 1 of the template operations answered 202.
const (
	templateUpgradeTime = 500 * time.Millisecond
	sourceRefreshTime   = 500 * time.Millisecond
)

// Operation kinds of templates; their results are decided when accepted.
const (
	opTemplateUpgrade = "template_upgrade"
	opSourceRefresh   = "template_source_refresh"
)

// uncategorized is where a template without a category is filed.
const uncategorized = "uncategorized"

// seedTemplates files the categories and the system templates, once for
// every player.
func (st *state) seedTemplates(_ int64, now time.Time) {
	if len(st.TemplateCategories) > 0 {
		return
	}
	for _, c := range [][2]string{
		{"Web applications", "web-applications"},
		{"Databases", "databases"},
		{"Jobs", "jobs"},
		{"Uncategorized", uncategorized},
	} {
		st.TemplateCategories = append(st.TemplateCategories, &templateCategory{ID: st.nextID("template_category"), Name: c[0], Slug: c[1]})
	}
	for _, t := range []struct{ name, desc, cat, body string }{
		{"nginx-static", "A static site served by nginx", "web-applications",
			"services:\n  web:\n    image: nginx:alpine\n    ports:\n      - \"80\"\n"},
		{"postgres", "A PostgreSQL database", "databases",
			"services:\n  db:\n    image: postgres:16-alpine\n    environment:\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}\n"},
	} {
		tpl := &importTemplate{ID: st.nextID("import_template"), Name: t.name, Description: t.desc, System: true,
			CategoryID: st.categoryBySlug(t.cat).ID, CreatedAt: now, UpdatedAt: now}
		tpl.Versions = []*templateVersion{{ID: st.nextID("template_version"), Version: 1, Public: true, TemplateBody: t.body, CreatedAt: now}}
		st.Templates = append(st.Templates, tpl)
	}
}

func (st *state) categoryBySlug(slug string) *templateCategory {
	for _, c := range st.TemplateCategories {
		if c.Slug == slug {
			return c
		}
	}
	return nil
}

func (s *Server) templateRoutes(rt *router) {
	const read, write = "import_templates:read", "import_templates:write"
	rt.add("GET", "/api/template_categories", read, s.listTemplateCategories)
	rt.add("GET", "/api/import_templates", read, s.listTemplates)
	rt.add("POST", "/api/import_templates", write, s.createTemplate)
	rt.add("GET", "/api/import_templates/{id}", read, s.getTemplate)
	rt.add("PATCH", "/api/import_templates/{id}", write, s.updateTemplate)
	rt.add("PUT", "/api/import_templates/{id}", write, s.updateTemplate)
	rt.add("DELETE", "/api/import_templates/{id}", write, s.deleteTemplate)
	rt.add("GET", "/api/import_templates/{id}/versions", read, s.listTemplateVersions)
	rt.add("POST", "/api/import_templates/{id}/versions", write, s.createTemplateVersion)
	rt.add("DELETE", "/api/import_templates/{id}/versions/{vid}", write, s.deleteTemplateVersion)
	rt.add("PATCH", "/api/import_templates/{id}/versions/{vid}/publication", write, s.toggleTemplatePublication)
	rt.add("POST", "/api/import_templates/{id}/versions/{vid}/upgrades", write, s.upgradeTemplatePlayspecs)
	rt.add("POST", "/api/import_templates/{id}/patch_previews", write, s.previewTemplatePatch)
	rt.add("POST", "/api/import_templates/{id}/patches", write, s.applyTemplatePatch)
	rt.add("PUT", "/api/import_templates/{id}/source", write, s.setTemplateSource)
	rt.add("DELETE", "/api/import_templates/{id}/source", write, s.clearTemplateSource)
	rt.add("POST", "/api/import_templates/{id}/source", write, s.refreshTemplateSource)
	rt.add("POST", "/api/import_templates/{id}/forks", write, s.forkTemplate)
	rt.add("POST", "/api/import_templates/{id}/images", write, s.uploadTemplateImage)
}

// published reports whether the template has a public version.
func (t *importTemplate) published() bool {
	return slices.ContainsFunc(t.Versions, func(v *templateVersion) bool { return v.Public })
}

// visibleTo reports whether player may read the template.
func (t *importTemplate) visibleTo(player int64) bool {
	return t.Owner == player || t.System || t.published()
}

// visibleTemplate resolves an id or a name among the templates player may
// read, their own first.
func (rc *reqCtx) visibleTemplate(ref string) (*importTemplate, error) {
	if t := findOwned(rc.st.Templates, rc.player, ref); t != nil {
		return t, nil
	}
	numeric := isNumeric(ref)
	for _, t := range rc.st.Templates {
		if t.visibleTo(rc.player) && (t.Name == ref || (numeric && strconv.FormatInt(t.ID, 10) == ref)) {
			return t, nil
		}
	}
	return nil, notFound("import template " + strconv.Quote(ref))
}

// pathTemplate is the {id} of the path among the player's own templates:
// the only ones a write may touch.
func (rc *reqCtx) pathTemplate() (*importTemplate, error) {
	if t := findOwned(rc.st.Templates, rc.player, rc.param(0)); t != nil {
		return t, nil
	}
	return nil, notFound("import template " + strconv.Quote(rc.param(0)))
}

// pathVersion is the {vid} of the path among t's versions.
func (rc *reqCtx) pathVersion(t *importTemplate) (*templateVersion, error) {
	ref := rc.param(1)
	for _, v := range t.Versions {
		if strconv.FormatInt(v.ID, 10) == ref {
			return v, nil
		}
	}
	return nil, notFound("version " + strconv.Quote(ref) + " of import template " + strconv.Quote(t.Name))
}

func (t *importTemplate) latest() *templateVersion {
	if len(t.Versions) == 0 {
		return nil
	}
	return t.Versions[len(t.Versions)-1]
}

func (t *importTemplate) latestPublic() *templateVersion {
	for i := len(t.Versions) - 1; i >= 0; i-- {
		if t.Versions[i].Public {
			return t.Versions[i]
		}
	}
	return nil
}

// addVersion appends a version numbered after the last.
func (rc *reqCtx) addVersion(t *importTemplate, body string, public bool, changelog *string) *templateVersion {
	n := int64(1)
	if last := t.latest(); last != nil {
		n = last.Version + 1
	}
	v := &templateVersion{ID: rc.st.nextID("template_version"), Version: n, Public: public, TemplateBody: body,
		Changelog: changelog, CreatedAt: rc.now}
	t.Versions = append(t.Versions, v)
	t.UpdatedAt = rc.now
	return v
}

// Views. Timestamps are RFC 3339, as everywhere else (docs/api.md,
// Templates: the platform may send "2026-04-30 13:05:15 UTC" here, and
// fibe reads both).

type templateView struct {
	ID               int64                 `json:"id"`
	Name             string                `json:"name"`
	Description      string                `json:"description"`
	System           bool                  `json:"system"`
	Author           string                `json:"author"`
	Category         string                `json:"category"`
	CategoryID       int64                 `json:"category_id"`
	ImageURL         *string               `json:"image_url"`
	Source           *templateSourceView   `json:"source"`
	LatestVersion    *int64                `json:"latest_version"`
	LatestVersionID  *int64                `json:"latest_version_id"`
	LatestVersionTag *string               `json:"latest_version_tag"`
	VersionTags      []string              `json:"version_tags"`
	Variables        map[string]any        `json:"variables"`
	CreatedAt        time.Time             `json:"created_at"`
	UpdatedAt        time.Time             `json:"updated_at"`
	Versions         []templateVersionView `json:"versions,omitempty"`
}

type templateVersionView struct {
	ID                int64                     `json:"id"`
	Version           int64                     `json:"version"`
	Public            bool                      `json:"public"`
	Approved          bool                      `json:"approved"`
	GreenfieldDefault bool                      `json:"greenfield_default"`
	TemplateBody      string                    `json:"template_body"`
	Changelog         *string                   `json:"changelog"`
	Source            *templateVersionSourceVew `json:"source"`
	Variables         map[string]any            `json:"variables"`
	CreatedAt         time.Time                 `json:"created_at"`
}

type templateVersionSourceVew struct {
	Path      string `json:"path"`
	Ref       string `json:"ref"`
	CommitSHA string `json:"commit_sha,omitempty"`
}

type templateSourceView struct {
	ID              int64      `json:"id"`
	PropID          *int64     `json:"prop_id"`
	PropName        *string    `json:"prop_name"`
	Path            string     `json:"path"`
	Ref             string     `json:"ref"`
	AutoRefresh     bool       `json:"auto_refresh"`
	AutoUpgrade     bool       `json:"auto_upgrade"`
	CIEnabled       bool       `json:"ci_enabled"`
	CIMarqueeID     *int64     `json:"ci_marquee_id"`
	LastStatus      *string    `json:"last_status"`
	LastCommitSHA   *string    `json:"last_commit_sha"`
	LastRefreshedAt *time.Time `json:"last_refreshed_at"`
}

func (st *state) templateView(t *importTemplate, detail bool) templateView {
	v := templateView{ID: t.ID, Name: t.Name, Description: t.Description, System: t.System, Author: "fibe",
		CategoryID: t.CategoryID, ImageURL: nullable(t.ImageURL), VersionTags: []string{}, Variables: map[string]any{},
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
	if p := st.playerByID(t.Owner); p != nil {
		v.Author = p.Username
	}
	for _, c := range st.TemplateCategories {
		if c.ID == t.CategoryID {
			v.Category = c.Name
		}
	}
	if last := t.latest(); last != nil {
		tag := "v" + strconv.FormatInt(last.Version, 10)
		v.LatestVersion, v.LatestVersionID, v.LatestVersionTag = &last.Version, &last.ID, &tag
		v.Variables = templateVariables(last.TemplateBody)
	}
	for _, ver := range t.Versions {
		v.VersionTags = append(v.VersionTags, "v"+strconv.FormatInt(ver.Version, 10))
	}
	if s := t.Source; s != nil {
		v.Source = &templateSourceView{ID: s.ID, Path: s.Path, Ref: s.Ref, AutoRefresh: s.AutoRefresh, AutoUpgrade: s.AutoUpgrade,
			CIEnabled: s.CIEnabled, CIMarqueeID: s.CIMarqueeID, LastStatus: nullable(s.LastStatus),
			LastCommitSHA: nullable(s.LastCommitSHA), LastRefreshedAt: s.LastRefreshedAt}
		if id, err := strconv.ParseInt(s.PropRef, 10, 64); err == nil {
			v.Source.PropID = &id
		} else {
			v.Source.PropName = nullable(s.PropRef)
		}
	}
	if detail {
		v.Versions = []templateVersionView{}
		for _, ver := range t.Versions {
			v.Versions = append(v.Versions, versionView(t, ver))
		}
	}
	return v
}

func versionView(t *importTemplate, v *templateVersion) templateVersionView {
	out := templateVersionView{ID: v.ID, Version: v.Version, Public: v.Public, Approved: t.System,
		TemplateBody: v.TemplateBody, Changelog: v.Changelog, Variables: templateVariables(v.TemplateBody), CreatedAt: v.CreatedAt}
	if v.FromSource && t.Source != nil {
		out.Source = &templateVersionSourceVew{Path: t.Source.Path, Ref: t.Source.Ref, CommitSHA: t.Source.LastCommitSHA}
	}
	return out
}

// variablePattern finds ${NAME} and ${NAME:-default} in a template body.
var variablePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}`) })

// templateVariables are the variables a body uses, each with its default
// (null without one).
func templateVariables(body string) map[string]any {
	out := map[string]any{}
	for _, m := range variablePattern().FindAllStringSubmatch(body, -1) {
		if m[2] != "" {
			out[m[1]] = m[2]
		} else if _, ok := out[m[1]]; !ok {
			out[m[1]] = nil
		}
	}
	return out
}

func (s *Server) listTemplateCategories(rc *reqCtx) (*reply, error) {
	page, perPage, err := pageParams(rc.c.query)
	if err != nil {
		return nil, err
	}
	return paginate(rc.st.TemplateCategories, page, perPage), nil
}

func (s *Server) listTemplates(rc *reqCtx) (*reply, error) {
	q := rc.c.query
	lq, err := parseListQuery(q, listSpec{sorts: []string{"updated_at", "name", "created_at"}, defaultSort: "updated_at_desc"})
	if err != nil {
		return nil, err
	}
	system, err := boolParam(q, "system")
	if err != nil {
		return nil, err
	}
	// category_id takes a category's id or, as a courtesy, its slug; one
	// that names no category matches no template.
	category := int64(-1)
	if v := q.Get("category_id"); v != "" {
		category = 0
		for _, c := range rc.st.TemplateCategories {
			if strconv.FormatInt(c.ID, 10) == v || c.Slug == v {
				category = c.ID
			}
		}
	}
	var only *importTemplate
	if v := q.Get("template_id"); v != "" {
		if only, err = rc.visibleTemplate(v); err != nil {
			return nil, err
		}
	}
	match, err := templateMatcher(q.Get("q"), q.Get("regex"))
	if err != nil {
		return nil, err
	}
	var kept []*importTemplate
	for _, t := range rc.st.Templates {
		if !t.visibleTo(rc.player) || (only != nil && t != only) || (system != nil && t.System != *system) ||
			(category >= 0 && t.CategoryID != category) || !lq.has("name", t.Name) || !lq.inTime(t.CreatedAt) {
			continue
		}
		texts := []string{t.Name, t.Description}
		if only != nil {
			// Within one template, the search reads its versions too.
			for _, v := range t.Versions {
				texts = append(texts, v.TemplateBody)
			}
		}
		if match(texts) {
			kept = append(kept, t)
		}
	}
	views := make([]templateView, 0, len(kept))
	for _, t := range kept {
		views = append(views, rc.st.templateView(t, false))
	}
	return listAnswer(views, lq, func(v templateView, col string) any {
		switch col {
		case "name":
			return v.Name
		case "created_at":
			return v.CreatedAt
		}
		return v.UpdatedAt
	}), nil
}

// literalRun finds a run of three characters that a regular expression
// matches literally, which a regex search needs (docs/api.md, Templates).
var literalRun = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z0-9_-]{3,}`) })

// templateMatcher is the q of a template search: a case-insensitive
// substring, or with regex=true a regular expression holding a literal of
// three or more characters.
func templateMatcher(q, regex string) (func(texts []string) bool, error) {
	if q == "" {
		return func([]string) bool { return true }, nil
	}
	useRegex := false
	if regex != "" {
		b, err := strconv.ParseBool(regex)
		if err != nil {
			return nil, invalid("regex", "is not a boolean (true or false)")
		}
		useRegex = b
	}
	if !useRegex {
		needle := strings.ToLower(q)
		return func(texts []string) bool {
			return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(strings.ToLower(t), needle) })
		}, nil
	}
	if !literalRun().MatchString(regexp.MustCompile(`\\.`).ReplaceAllString(q, "")) {
		return nil, invalid("q", "needs a literal of at least 3 characters in a regular expression")
	}
	re, err := regexp.Compile("(?i)" + q)
	if err != nil {
		return nil, invalid("q", "is not a valid regular expression")
	}
	return func(texts []string) bool { return slices.ContainsFunc(texts, re.MatchString) }, nil
}

func (s *Server) getTemplate(rc *reqCtx) (*reply, error) {
	t, err := rc.visibleTemplate(rc.param(0))
	if err != nil {
		return nil, err
	}
	view := rc.st.templateView(t, true)
	if t.Owner != rc.player && !t.System {
		// Another player's template shows its public versions only.
		view.Versions = slices.DeleteFunc(view.Versions, func(v templateVersionView) bool { return !v.Public })
	}
	return jsonReply(http.StatusOK, view), nil
}

// templateName checks a template's name: not blank, not only digits (it
// would read as an id), at most 100 characters, not taken among the
// player's own.
func (rc *reqCtx) templateName(name string, self *importTemplate) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("name", "can't be blank")
	case len(name) > 100:
		return invalid("name", "is too long (maximum is 100 characters)")
	case isNumeric(name):
		return invalid("name", "is invalid (not only digits)")
	}
	if t := findOwned(rc.st.Templates, rc.player, name); t != nil && t != self {
		return invalid("name", "has already been taken")
	}
	return nil
}

// templateCategoryID reads category_id. One that names no category (0,
// as the platform's SDK sends when none is chosen, or an unknown id) files
// the template under Uncategorized, as the platform does with 0.
func (rc *reqCtx) templateCategoryID(obj map[string]any) (int64, bool, error) {
	id, has, err := integer(obj, "category_id")
	if err != nil {
		return 0, false, err
	}
	for _, c := range rc.st.TemplateCategories {
		if has && c.ID == id {
			return id, true, nil
		}
	}
	return rc.st.categoryBySlug(uncategorized).ID, has, nil
}

func (s *Server) createTemplate(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("import_template")
	if err != nil {
		return nil, err
	}
	name, _, err := str(obj, "name")
	if err != nil {
		return nil, err
	}
	if err := rc.templateName(name, nil); err != nil {
		return nil, err
	}
	desc, _, err := str(obj, "description")
	if err != nil {
		return nil, err
	}
	cat, _, err := rc.templateCategoryID(obj)
	if err != nil {
		return nil, err
	}
	body, _, err := str(rc.body, "template_body")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(body) == "" {
		return nil, invalid("template_body", "can't be blank")
	}
	t := &importTemplate{ID: rc.st.nextID("import_template"), Owner: rc.player, Name: name, Description: desc,
		CategoryID: cat, CreatedAt: rc.now, UpdatedAt: rc.now}
	rc.addVersion(t, body, false, nil)
	rc.st.Templates = append(rc.st.Templates, t)
	view := rc.st.templateView(t, true)
	rc.emit("template.created", "ImportTemplate", t.ID, view)
	out := jsonReply(http.StatusCreated, view)
	out.header.Set("Location", "/api/import_templates/"+strconv.FormatInt(t.ID, 10))
	return out, nil
}

func (s *Server) updateTemplate(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("import_template")
	if err != nil {
		return nil, err
	}
	name, hasName, err := str(obj, "name")
	if err != nil {
		return nil, err
	}
	if hasName {
		if err := rc.templateName(name, t); err != nil {
			return nil, err
		}
	}
	desc, hasDesc, err := str(obj, "description")
	if err != nil {
		return nil, err
	}
	cat, hasCat, err := rc.templateCategoryID(obj)
	if err != nil {
		return nil, err
	}
	if hasName {
		t.Name = name
	}
	if hasDesc {
		t.Description = desc
	}
	if hasCat {
		t.CategoryID = cat
	}
	t.UpdatedAt = rc.now
	return rc.templateChanged(t, http.StatusOK), nil
}

// templateChanged emits template.updated and answers with the template.
func (rc *reqCtx) templateChanged(t *importTemplate, status int) *reply {
	view := rc.st.templateView(t, true)
	rc.emit("template.updated", "ImportTemplate", t.ID, view)
	return jsonReply(status, view)
}

func (s *Server) deleteTemplate(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	view := rc.st.templateView(t, false)
	rc.st.Templates = slices.DeleteFunc(rc.st.Templates, func(x *importTemplate) bool { return x == t })
	rc.emit("template.destroyed", "ImportTemplate", t.ID, view)
	return newReply(http.StatusNoContent), nil
}

func (s *Server) listTemplateVersions(rc *reqCtx) (*reply, error) {
	t, err := rc.visibleTemplate(rc.param(0))
	if err != nil {
		return nil, err
	}
	page, perPage, err := pageParams(rc.c.query)
	if err != nil {
		return nil, err
	}
	views := []templateVersionView{}
	for i := len(t.Versions) - 1; i >= 0; i-- { // newest first
		v := t.Versions[i]
		if t.Owner == rc.player || t.System || v.Public {
			views = append(views, versionView(t, v))
		}
	}
	return paginate(views, page, perPage), nil
}

// newVersion adds a version of t with body and the request's public and
// changelog, for a new version and a patch alike.
func (rc *reqCtx) newVersion(t *importTemplate, body string) (*templateVersion, error) {
	if strings.TrimSpace(body) == "" {
		return nil, invalid("template_body", "can't be blank")
	}
	public, err := boolean(rc.body, "public")
	if err != nil {
		return nil, err
	}
	changelog, hasLog, err := str(rc.body, "changelog")
	if err != nil {
		return nil, err
	}
	var logp *string
	if hasLog {
		logp = &changelog
	}
	v := rc.addVersion(t, body, public, logp)
	rc.emit("template.updated", "ImportTemplate", t.ID, rc.st.templateView(t, false))
	return v, nil
}

func (s *Server) createTemplateVersion(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	body, _, err := str(rc.body, "template_body")
	if err != nil {
		return nil, err
	}
	v, err := rc.newVersion(t, body)
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusCreated, versionView(t, v)), nil
}

func (s *Server) deleteTemplateVersion(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	v, err := rc.pathVersion(t)
	if err != nil {
		return nil, err
	}
	if len(t.Versions) == 1 {
		return nil, invalid("version", "is the template's only version (delete the template instead)")
	}
	t.Versions = slices.DeleteFunc(t.Versions, func(x *templateVersion) bool { return x == v })
	t.UpdatedAt = rc.now
	rc.emit("template.updated", "ImportTemplate", t.ID, rc.st.templateView(t, false))
	return newReply(http.StatusNoContent), nil
}

// toggleTemplatePublication flips a version's public flag: it is not
// idempotent by content, so a retry must carry the same Idempotency-Key to
// be replayed rather than flip it back.
func (s *Server) toggleTemplatePublication(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	v, err := rc.pathVersion(t)
	if err != nil {
		return nil, err
	}
	v.Public = !v.Public
	t.UpdatedAt = rc.now
	rc.emit("template.updated", "ImportTemplate", t.ID, rc.st.templateView(t, false))
	return jsonReply(http.StatusOK, versionView(t, v)), nil
}

// upgradeTemplatePlayspecs (202) upgrades the playspecs launched from the
// template to the version. The emulator's launches keep no link to the
// version they came from, so there is nothing to upgrade: the result
// counts none.
func (s *Server) upgradeTemplatePlayspecs(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	v, err := rc.pathVersion(t)
	if err != nil {
		return nil, err
	}
	op := rc.newOp(opTemplateUpgrade, templateUpgradeTime)
	op.succeed(map[string]any{"success": true, "upgraded_count": 0, "failed_count": 0,
		"results": []any{}, "errors": []string{}, "version_id": v.ID})
	return rc.accepted(op), nil
}

// patchBase reads a patch's base_version_id and the body the patch makes
// of it: template_body whole, or search/replace edits.
func (rc *reqCtx) patchBase(t *importTemplate) (*templateVersion, string, error) {
	baseID, has, err := integer(rc.body, "base_version_id")
	if err != nil {
		return nil, "", err
	}
	if !has {
		return nil, "", invalid("base_version_id", "can't be blank")
	}
	var base *templateVersion
	for _, v := range t.Versions {
		if v.ID == baseID {
			base = v
		}
	}
	if base == nil {
		return nil, "", invalid("base_version_id", "is not a version of this template")
	}
	if body, has, err := str(rc.body, "template_body"); err != nil || has {
		return base, body, err
	}
	out := base.TemplateBody
	for _, key := range []string{"patches", "edits"} {
		list, ok := rc.body[key].([]any)
		if !ok {
			continue
		}
		for i, e := range list {
			edit, _ := e.(map[string]any)
			search, _, _ := str(edit, "search")
			replace, _, _ := str(edit, "replace")
			if search == "" {
				return nil, "", invalid(key, "edit "+strconv.Itoa(i)+" needs search and replace (only text edits are supported)")
			}
			if !strings.Contains(out, search) {
				return nil, "", invalid(key, "edit "+strconv.Itoa(i)+": "+strconv.Quote(search)+" is not in the base version")
			}
			out = strings.Replace(out, search, replace, 1)
		}
	}
	return base, out, nil
}

func (s *Server) previewTemplatePatch(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	base, body, err := rc.patchBase(t)
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, map[string]any{"base_version_id": base.ID, "template_body": body,
		"changed": body != base.TemplateBody, "warnings": []string{}, "variables": templateVariables(body)}), nil
}

func (s *Server) applyTemplatePatch(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	base, body, err := rc.patchBase(t)
	if err != nil {
		return nil, err
	}
	v, err := rc.newVersion(t, body)
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusCreated, map[string]any{"base_version_id": base.ID, "version": versionView(t, v),
		"template": rc.st.templateView(t, false)}), nil
}

func (s *Server) setTemplateSource(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("source")
	if err != nil {
		return nil, err
	}
	prop, hasProp, err := ref(obj, "source_prop_id")
	if err != nil {
		return nil, err
	}
	if !hasProp {
		return nil, invalid("source_prop_id", "can't be blank")
	}
	path, _, err := str(obj, "source_path")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(path) == "" {
		return nil, invalid("source_path", "can't be blank")
	}
	gitRef, _, err := str(obj, "source_ref")
	if err != nil {
		return nil, err
	}
	if gitRef == "" {
		gitRef = "main"
	}
	src := &templateSource{ID: t.ID, PropRef: prop, Path: path, Ref: gitRef}
	for field, into := range map[string]*bool{"source_auto_refresh": &src.AutoRefresh, "source_auto_upgrade": &src.AutoUpgrade, "ci_enabled": &src.CIEnabled} {
		if *into, err = boolean(obj, field); err != nil {
			return nil, err
		}
	}
	if mq, has, err := ref(obj, "ci_marquee_id"); err != nil {
		return nil, err
	} else if has {
		m := findOwned(rc.st.Marquees, rc.player, mq)
		if m == nil {
			return nil, invalid("ci_marquee_id", "does not exist")
		}
		src.CIMarqueeID = &m.ID
	}
	t.Source, t.UpdatedAt = src, rc.now
	return rc.templateChanged(t, http.StatusOK), nil
}

func (s *Server) clearTemplateSource(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	t.Source, t.UpdatedAt = nil, rc.now
	return rc.templateChanged(t, http.StatusOK), nil
}

// refreshTemplateSource (202) reads the source again. The emulator has no
// repository to read: the refresh finds the latest version unchanged and
// creates none.
func (s *Server) refreshTemplateSource(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	if t.Source == nil {
		return nil, invalid("source", "is not set (PUT /api/import_templates/{id}/source first)")
	}
	at := rc.now
	t.Source.LastStatus, t.Source.LastRefreshedAt = "unchanged", &at
	t.Source.LastCommitSHA = strings.Repeat("0", 40)
	op := rc.newOp(opSourceRefresh, sourceRefreshTime)
	op.succeed(map[string]any{"success": true, "version_created": false, "version": nil, "upgrade": nil,
		"errors": []string{}, "payload": map[string]any{}, "template": rc.st.templateView(t, false)})
	return rc.accepted(op), nil
}

// forkFailed is the 422 of a fork the platform refuses.
func forkFailed(message string) error {
	return newAPIError(http.StatusUnprocessableEntity, "FORK_FAILED", message, nil)
}

// forkTemplate copies another player's (or a system) template's latest
// public version into a new template of the player's own.
func (s *Server) forkTemplate(rc *reqCtx) (*reply, error) {
	src, err := rc.visibleTemplate(rc.param(0))
	if err != nil {
		return nil, err
	}
	if src.Owner == rc.player {
		return nil, forkFailed("cannot fork your own template")
	}
	pub := src.latestPublic()
	if pub == nil {
		return nil, forkFailed("the template has no public version to fork")
	}
	name := src.Name + "-fork"
	for i := 2; findOwned(rc.st.Templates, rc.player, name) != nil; i++ {
		name = src.Name + "-fork-" + strconv.Itoa(i)
	}
	t := &importTemplate{ID: rc.st.nextID("import_template"), Owner: rc.player, Name: name, Description: src.Description,
		CategoryID: src.CategoryID, ImageURL: src.ImageURL, CreatedAt: rc.now, UpdatedAt: rc.now}
	changelog := "Forked from " + src.Name + " v" + strconv.FormatInt(pub.Version, 10)
	rc.addVersion(t, pub.TemplateBody, false, &changelog)
	rc.st.Templates = append(rc.st.Templates, t)
	view := rc.st.templateView(t, true)
	rc.emit("template.created", "ImportTemplate", t.ID, view)
	return jsonReply(http.StatusCreated, view), nil
}

// maxImageBytes bounds a template's image once decoded.
const maxImageBytes = 512 << 10

func (s *Server) uploadTemplateImage(rc *reqCtx) (*reply, error) {
	t, err := rc.pathTemplate()
	if err != nil {
		return nil, err
	}
	filename, _, err := str(rc.body, "filename")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(filename) == "" {
		return nil, invalid("filename", "can't be blank")
	}
	data, _, err := str(rc.body, "image_data")
	if err != nil {
		return nil, err
	}
	if data == "" {
		return nil, invalid("image_data", "can't be blank")
	}
	raw, err := base64.StdEncoding.Strict().DecodeString(data)
	if err != nil {
		return nil, badRequest("image_data is not valid base64")
	}
	if len(raw) > maxImageBytes {
		return nil, invalid("image_data", "is larger than 512 KiB")
	}
	ct, _, err := str(rc.body, "content_type")
	if err != nil {
		return nil, err
	}
	if ct == "" {
		ct = http.DetectContentType(raw)
	}
	if !strings.HasPrefix(ct, "image/") {
		return nil, invalid("content_type", "must be an image type, not "+strconv.Quote(ct))
	}
	t.ImageURL = "/uploads/import_templates/" + strconv.FormatInt(t.ID, 10) + "/" + safeFilename(filename)
	t.UpdatedAt = rc.now
	return rc.templateChanged(t, http.StatusOK), nil
}

// safeFilename keeps the letters, digits, dots, dashes and underscores of
// a file name's last element.
func safeFilename(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, name)
	if name == "" || strings.Trim(name, ".") == "" {
		return "image"
	}
	return name
}
