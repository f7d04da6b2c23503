package localapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Playspec authoring (docs/api.md, Playspecs): each player's playspecs,
// created, changed and deleted through the API, with the compose they hold,
// the services read from it, mounted files and registry credentials.

// playspecState is the playspec family's part of the state.
type playspecState struct {
	Playspecs []*playspec `json:"playspecs"`
}

// playspec is a template for playgrounds: a compose file and what the
// platform adds to it. Every player starts with `web`, which works, and
// `broken`, whose web image cannot be pulled (seedPlayspecs).
type playspec struct {
	ID             int64                 `json:"id"`
	Owner          int64                 `json:"owner"`
	Name           string                `json:"name"`
	Description    string                `json:"description"`
	Compose        string                `json:"base_compose_yaml"`
	PersistVolumes bool                  `json:"persist_volumes,omitempty"`
	JobMode        bool                  `json:"job_mode,omitempty"`
	ServiceDefs    []map[string]any      `json:"service_defs,omitempty"`
	TriggerConfig  map[string]any        `json:"trigger_config,omitempty"`
	MutiConfig     map[string]any        `json:"muti_config,omitempty"`
	ScheduleConfig map[string]any        `json:"schedule_config,omitempty"`
	MountedFiles   []*mountedFile        `json:"mounted_files,omitempty"`
	Credentials    []*registryCredential `json:"credentials,omitempty"`
	CredSerial     int64                 `json:"cred_serial,omitempty"`
	// Services are read from Compose and ServiceDefs whenever either
	// changes, so a playground's view need not parse YAML.
	Services  []serviceSpec `json:"services"`
	CreatedAt time.Time     `json:"created_at"`
	UpdatedAt time.Time     `json:"updated_at"`
}

func (ps *playspec) identity() (int64, string) { return ps.ID, ps.Name }
func (ps *playspec) owner() int64              { return ps.Owner }

// serviceSpec is one service of a playspec as GET …/services and the
// detail's "services" show it: the compose's service and its definition.
type serviceSpec struct {
	Name           string `json:"name"`
	Type           string `json:"type"`
	Image          string `json:"image,omitempty"`
	Build          bool   `json:"build,omitempty"`
	Public         bool   `json:"public"` // exposed with a service URL
	Port           int    `json:"port,omitempty"`
	Visibility     string `json:"visibility,omitempty"`
	Subdomain      string `json:"subdomain,omitempty"`
	JobWatch       bool   `json:"job_watch"`
	PropID         any    `json:"prop_id,omitempty"`
	Workdir        string `json:"workdir,omitempty"`
	Workflow       string `json:"workflow,omitempty"`
	EnvFilePath    string `json:"env_file_path,omitempty"`
	DockerfilePath string `json:"dockerfile_path,omitempty"`
}

// mountedFile is a file mounted into the playspec's services; its content
// is not kept, only its size and digest.
type mountedFile struct {
	Filename       string   `json:"filename"`
	ByteSize       int64    `json:"byte_size"`
	ContentType    string   `json:"content_type"`
	SHA256         string   `json:"sha256"`
	MountPath      string   `json:"mount_path"`
	ReadOnly       bool     `json:"readonly"`
	TargetServices []string `json:"target_services"`
}

// registryCredential lets the playspec's images be pulled from a private
// registry. The secret is write-only: it is not kept.
type registryCredential struct {
	ID           string `json:"id"`
	RegistryType string `json:"registry_type"`
	RegistryURL  string `json:"registry_url"`
	Username     string `json:"username"`
}

// privateRegistry is the registry whose images can be pulled only with a
// registry credential for it: `broken`'s web image is there.
const privateRegistry = "registry.fibe.test"

// registryTypes are the kinds of registry a credential may be for.
var registryTypes = []string{"dockerhub", "ghcr", "gitlab", "gcr", "ecr", "acr", "custom"}

// seedPlayspecs are the playspecs every player starts with.
var seedPlayspecs = []struct{ name, description, compose string }{
	{"web", "A web app with a worker and a database", `services:
  web:
    image: nginx:1.27
    labels:
      fibe.gg/port: "80"
  worker:
    image: busybox:1.36
  db:
    image: postgres:16
`},
	{"broken", "A web app whose image cannot be pulled: every rollout fails at the build step", `services:
  web:
    image: registry.fibe.test/broken/web:latest
    labels:
      fibe.gg/port: "80"
  db:
    image: postgres:16
`},
}

// seedPlayspecs gives player their starting playspecs.
func (st *state) seedPlayspecs(player int64, now time.Time) {
	for _, sp := range seedPlayspecs {
		ps := &playspec{ID: st.nextID("playspec"), Owner: player, Name: sp.name, Description: sp.description,
			Compose: sp.compose, CreatedAt: now, UpdatedAt: now}
		ps.Services, _ = deriveServices(readCompose(sp.compose).Services, nil)
		st.Playspecs = append(st.Playspecs, ps)
	}
}

func (s *Server) playspecRoutes(rt *router) {
	rt.add("GET", "/api/playspecs", "playspecs:read", s.listPlayspecs)
	rt.add("POST", "/api/playspecs", "playspecs:write", s.createPlayspec)
	rt.add("GET", "/api/playspecs/{id}", "playspecs:read", s.getPlayspec)
	rt.add("PATCH", "/api/playspecs/{id}", "playspecs:write", s.updatePlayspec)
	rt.add("PUT", "/api/playspecs/{id}", "playspecs:write", s.updatePlayspec)
	rt.add("DELETE", "/api/playspecs/{id}", "playspecs:delete", s.deletePlayspec)
	rt.add("GET", "/api/playspecs/{id}/services", "playspecs:read", s.playspecServices)
	rt.add("POST", "/api/playspecs/{id}/mounts", "playspecs:write", s.addMountedFile)
	rt.add("PATCH", "/api/playspecs/{id}/mounts", "playspecs:write", s.updateMountedFile)
	rt.add("DELETE", "/api/playspecs/{id}/mounts", "playspecs:write", s.removeMountedFile)
	rt.add("POST", "/api/playspecs/{id}/registry_credentials", "playspecs:write", s.addRegistryCredential)
	rt.add("DELETE", "/api/playspecs/{id}/registry_credentials", "playspecs:write", s.removeRegistryCredential)
	rt.add("POST", "/api/compose_validations", "", s.validateCompose)
}

// findPlayspec resolves an id or a name among player's playspecs.
func (st *state) findPlayspec(player int64, ref string) *playspec {
	return findOwned(st.Playspecs, player, ref)
}

// playspecByID is the playspec of a playground (whoever owns it).
func (st *state) playspecByID(id int64) *playspec { return findByID(st.Playspecs, id) }

// playspecNames lists player's playspecs, for messages that name the known ones.
func (st *state) playspecNames(player int64) []string {
	var out []string
	for _, ps := range st.Playspecs {
		if ps.Owner == player {
			out = append(out, ps.Name)
		}
	}
	return out
}

func (rc *reqCtx) pathPlayspec() (*playspec, error) {
	ps := rc.st.findPlayspec(rc.player, rc.param(0))
	if ps == nil {
		return nil, notFound("playspec " + strconv.Quote(rc.param(0)))
	}
	return ps, nil
}

// serviceList is the playspec's services; none for no playspec (a
// playground's that was deleted).
func (ps *playspec) serviceList() []serviceSpec {
	if ps == nil {
		return nil
	}
	return ps.Services
}

func (ps *playspec) hasService(name string) bool {
	return slices.ContainsFunc(ps.Services, func(s serviceSpec) bool { return s.Name == name })
}

func (ps *playspec) serviceNames() []string {
	out := make([]string, len(ps.Services))
	for i, s := range ps.Services {
		out[i] = s.Name
	}
	return out
}

// unpullable is the first service whose image cannot be pulled: one on
// the private registry without a credential for it.
func (ps *playspec) unpullable() (serviceSpec, bool) {
	for _, s := range ps.serviceList() {
		if registryHost(s.Image) != privateRegistry {
			continue
		}
		if !slices.ContainsFunc(ps.Credentials, func(c *registryCredential) bool {
			return registryHost(c.RegistryURL+"/x") == privateRegistry
		}) {
			return s, true
		}
	}
	return serviceSpec{}, false
}

// registryHost is the registry of an image reference ("" for Docker Hub),
// or the host of a registry URL.
func registryHost(image string) string {
	image = strings.TrimPrefix(strings.TrimPrefix(image, "https://"), "http://")
	first, _, found := strings.Cut(image, "/")
	if !found || !strings.ContainsAny(first, ".:") && first != "localhost" {
		return ""
	}
	host, _, _ := strings.Cut(first, ":")
	return host
}

// playspecSummary is a playspec as lists show it.
type playspecSummary struct {
	ID                        int64     `json:"id"`
	Name                      string    `json:"name"`
	Description               string    `json:"description"`
	Locked                    bool      `json:"locked"`
	PersistVolumes            bool      `json:"persist_volumes"`
	JobMode                   bool      `json:"job_mode"`
	PlaygroundCount           int       `json:"playground_count"`
	TriggerEnabled            bool      `json:"trigger_enabled"`
	MutiMode                  bool      `json:"muti_mode"`
	CreatedAt                 time.Time `json:"created_at"`
	UpdatedAt                 time.Time `json:"updated_at"`
	SourceTemplateVersionID   *int64    `json:"source_template_version_id"`
	SourceTemplateVersion     any       `json:"source_template_version"`
	SourceTemplate            any       `json:"source_template"`
	TemplateVersionSwitchable bool      `json:"template_version_switchable"`
	SuggestedTemplateVersion  any       `json:"suggested_template_version"`
}

// playspecDetail is a playspec as GET /api/playspecs/{id} and the
// mutations show it.
type playspecDetail struct {
	playspecSummary
	BaseComposeYAML string                `json:"base_compose_yaml"`
	Services        []serviceSpec         `json:"services"`
	MountedFiles    []mountedFileView     `json:"mounted_files"`
	Credentials     []*registryCredential `json:"credentials"`
	TriggerConfig   map[string]any        `json:"trigger_config"`
	MutiConfig      map[string]any        `json:"muti_config"`
	ScheduleConfig  map[string]any        `json:"schedule_config"`
}

type mountedFileView struct {
	Filename       string   `json:"filename"`
	ByteSize       int64    `json:"byte_size"`
	ContentType    string   `json:"content_type"`
	MountPath      string   `json:"mount_path"`
	ReadOnly       bool     `json:"readonly"`
	TargetServices []string `json:"target_services"`
}

func (st *state) playspecSummaryOf(ps *playspec) playspecSummary {
	n := 0
	for _, pg := range st.Playgrounds {
		if pg.PlayspecID == ps.ID && pg.Status != "destroyed" {
			n++
		}
	}
	return playspecSummary{
		ID: ps.ID, Name: ps.Name, Description: ps.Description, PersistVolumes: ps.PersistVolumes, JobMode: ps.JobMode,
		PlaygroundCount: n, TriggerEnabled: enabled(ps.TriggerConfig), MutiMode: enabled(ps.MutiConfig),
		CreatedAt: ps.CreatedAt, UpdatedAt: ps.UpdatedAt,
	}
}

func (st *state) playspecDetailOf(ps *playspec) playspecDetail {
	d := playspecDetail{
		playspecSummary: st.playspecSummaryOf(ps), BaseComposeYAML: ps.Compose,
		Services: append([]serviceSpec{}, ps.Services...), MountedFiles: []mountedFileView{},
		Credentials:   append([]*registryCredential{}, ps.Credentials...),
		TriggerConfig: ps.TriggerConfig, MutiConfig: ps.MutiConfig, ScheduleConfig: ps.ScheduleConfig,
	}
	for _, f := range ps.MountedFiles {
		d.MountedFiles = append(d.MountedFiles, mountedFileView{Filename: f.Filename, ByteSize: f.ByteSize,
			ContentType: f.ContentType, MountPath: f.MountPath, ReadOnly: f.ReadOnly,
			TargetServices: append([]string{}, f.TargetServices...)})
	}
	return d
}

// enabled reports whether a config object says "enabled": true.
func enabled(cfg map[string]any) bool {
	b, _ := cfg["enabled"].(bool)
	return b
}

func (s *Server) listPlayspecs(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "name"}})
	if err != nil {
		return nil, err
	}
	jobMode, err := boolParam(rc.c.query, "job_mode")
	if err != nil {
		return nil, err
	}
	locked, err := boolParam(rc.c.query, "locked")
	if err != nil {
		return nil, err
	}
	var kept []playspecSummary
	for _, ps := range rc.st.Playspecs {
		if ps.Owner != rc.player || !lq.has("name", ps.Name) || !lq.search(ps.Name, ps.Description) || !lq.inTime(ps.CreatedAt) ||
			jobMode != nil && ps.JobMode != *jobMode || locked != nil && *locked {
			continue
		}
		kept = append(kept, rc.st.playspecSummaryOf(ps))
	}
	return listAnswer(kept, lq, func(ps playspecSummary, col string) any {
		if col == "name" {
			return ps.Name
		}
		return ps.CreatedAt
	}), nil
}

func (s *Server) getPlayspec(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, rc.st.playspecDetailOf(ps)), nil
}

func (s *Server) createPlayspec(rc *reqCtx) (*reply, error) {
	obj, name, err := rc.newNamed("playspec", func(n string) bool { return rc.st.findPlayspec(rc.player, n) != nil })
	if err != nil {
		return nil, err
	}
	if _, ok, err := str(obj, "base_compose_yaml"); err != nil {
		return nil, err
	} else if !ok {
		return nil, invalid("base_compose_yaml", "can't be blank")
	}
	ps := &playspec{Owner: rc.player, Name: name, CreatedAt: rc.now, UpdatedAt: rc.now}
	if err := playspecFields(obj, ps); err != nil {
		return nil, err
	}
	ps.ID = rc.st.nextID("playspec")
	rc.st.Playspecs = append(rc.st.Playspecs, ps)
	view := rc.st.playspecDetailOf(ps)
	rc.emit("playspec.created", "Playspec", ps.ID, view)
	out := jsonReply(http.StatusCreated, view)
	out.header.Set("Location", "/api/playspecs/"+strconv.FormatInt(ps.ID, 10))
	return out, nil
}

func (s *Server) updatePlayspec(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("playspec")
	if err != nil {
		return nil, err
	}
	name, hasName, err := rename(obj, ps.Name, func(n string) bool { return rc.st.findPlayspec(rc.player, n) != nil })
	if err != nil {
		return nil, err
	}
	updated := *ps
	if err := playspecFields(obj, &updated); err != nil {
		return nil, err
	}
	if hasName {
		updated.Name = name
	}
	updated.UpdatedAt = rc.now
	*ps = updated
	return rc.playspecChanged(ps, http.StatusOK), nil
}

// playspecChanged emits playspec.updated and answers the playspec.
func (rc *reqCtx) playspecChanged(ps *playspec, status int) *reply {
	view := rc.st.playspecDetailOf(ps)
	rc.emit("playspec.updated", "Playspec", ps.ID, view)
	return jsonReply(status, view)
}

// deletePlayspec refuses while playgrounds still use the playspec, as a
// marquee's delete does while it hosts some (409 CONFLICT).
func (s *Server) deletePlayspec(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	if n := rc.st.playspecSummaryOf(ps).PlaygroundCount; n > 0 {
		return nil, conflict("playspec "+ps.Name+" is used by "+itoa(n)+" playground(s)", "playspec_in_use",
			map[string]any{"playgrounds": n})
	}
	view := rc.st.playspecDetailOf(ps)
	rc.st.Playspecs = slices.DeleteFunc(rc.st.Playspecs, func(x *playspec) bool { return x == ps })
	rc.emit("playspec.destroyed", "Playspec", ps.ID, view)
	return newReply(http.StatusNoContent), nil
}

func (s *Server) playspecServices(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, append([]serviceSpec{}, ps.Services...)), nil
}

// playspecFields reads the writable fields of a create or an update into
// ps and derives its services again.
func playspecFields(obj map[string]any, ps *playspec) error {
	if v, ok, err := str(obj, "description"); err != nil {
		return err
	} else if ok {
		ps.Description = v
	}
	if v, ok, err := str(obj, "base_compose_yaml"); err != nil {
		return err
	} else if ok {
		if strings.TrimSpace(v) == "" {
			return invalid("base_compose_yaml", "can't be blank")
		}
		ps.Compose = v
	}
	for _, f := range []struct {
		field string
		into  *bool
	}{{"persist_volumes", &ps.PersistVolumes}, {"job_mode", &ps.JobMode}} {
		if _, present := obj[f.field]; !present {
			continue
		}
		b, err := boolean(obj, f.field)
		if err != nil {
			return err
		}
		*f.into = b
	}
	for _, f := range []struct {
		field string
		into  *map[string]any
	}{{"trigger_config", &ps.TriggerConfig}, {"muti_config", &ps.MutiConfig}, {"schedule_config", &ps.ScheduleConfig}} {
		v, present := obj[f.field]
		if !present {
			continue
		}
		if v == nil {
			*f.into = nil
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return invalid(f.field, "must be an object")
		}
		*f.into = m
	}
	if v, present := obj["services"]; present {
		defs, err := serviceDefs(v)
		if err != nil {
			return err
		}
		ps.ServiceDefs = defs
	}
	check := readCompose(ps.Compose)
	if len(check.Errors) > 0 {
		return newAPIError(http.StatusUnprocessableEntity, codeValidation, "base_compose_yaml "+check.Errors[0],
			map[string]any{"base_compose_yaml": check.Errors})
	}
	services, err := deriveServices(check.Services, ps.ServiceDefs)
	if err != nil {
		return err
	}
	if ps.JobMode && !slices.ContainsFunc(services, func(s serviceSpec) bool { return s.JobWatch }) {
		return invalid("job_mode", "needs at least one watched service (job_watch: true, or the label "+labelJobWatch+")")
	}
	ps.Services = services
	return nil
}

var subdomainPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(@|[a-z0-9]([a-z0-9-]*[a-z0-9])?)$`) })

// serviceDefs checks the "services" field: a list of service definitions,
// each named once, of type static or dynamic, with a valid exposure.
func serviceDefs(v any) ([]map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, invalid("services", "must be a list of service definitions")
	}
	seen := map[string]bool{}
	out := make([]map[string]any, 0, len(list))
	for i, item := range list {
		at := "services[" + itoa(i) + "]"
		def, ok := item.(map[string]any)
		if !ok {
			return nil, invalid(at, "must be an object")
		}
		name, _, err := str(def, "name")
		if err != nil {
			return nil, invalid(at+".name", "must be a string")
		}
		switch {
		case strings.TrimSpace(name) == "":
			return nil, invalid(at+".name", "can't be blank")
		case seen[name]:
			return nil, invalid(at+".name", "must be unique ("+strconv.Quote(name)+" is given twice)")
		}
		seen[name] = true
		if t, ok, err := str(def, "type"); err != nil {
			return nil, invalid(at+".type", "must be a string")
		} else if ok && t != "static" && t != "dynamic" {
			return nil, invalid(at+".type", "must be static or dynamic, not "+strconv.Quote(t))
		}
		if _, err := boolean(def, "job_watch"); err != nil {
			return nil, invalid(at+".job_watch", "must be true or false")
		}
		if _, _, err := ref(def, "prop_id"); err != nil {
			return nil, invalid(at+".prop_id", "must be an id or a name")
		}
		for _, f := range []string{"workdir", "workflow", "env_file_path", "dockerfile_path", "image"} {
			if _, _, err := str(def, f); err != nil {
				return nil, invalid(at+"."+f, "must be a string")
			}
		}
		if err := checkExposure(at+".exposure", def["exposure"]); err != nil {
			return nil, err
		}
		out = append(out, def)
	}
	return out, nil
}

func checkExposure(at string, v any) error {
	if v == nil {
		return nil
	}
	exp, ok := v.(map[string]any)
	if !ok {
		return invalid(at, "must be an object")
	}
	if _, err := boolean(exp, "enabled"); err != nil {
		return invalid(at+".enabled", "must be true or false")
	}
	if port, ok, err := integer(exp, "port"); err != nil || ok && (port < 1 || port > 65535) {
		return invalid(at+".port", "must be between 1 and 65535")
	}
	if sub, ok, err := str(exp, "subdomain"); err != nil || ok && sub != "" && !subdomainPattern().MatchString(sub) {
		return invalid(at+".subdomain", "must be lowercase letters, digits and hyphens, or @")
	}
	if vis, ok, err := str(exp, "visibility"); err != nil || ok && vis != "" && vis != "internal" && vis != "external" {
		return invalid(at+".visibility", "must be internal or external")
	}
	return nil
}

// deriveServices joins the compose's services and their definitions.
func deriveServices(compose []composeService, defs []map[string]any) ([]serviceSpec, error) {
	names := make([]string, len(compose))
	for i, cs := range compose {
		names[i] = cs.Name
	}
	for i, def := range defs {
		if name, _ := def["name"].(string); !slices.Contains(names, name) {
			return nil, invalid("services["+itoa(i)+"].name", strconv.Quote(name)+" is not a service of base_compose_yaml ("+strings.Join(names, ", ")+")")
		}
	}
	out := make([]serviceSpec, 0, len(compose))
	for _, cs := range compose {
		s := serviceSpec{Name: cs.Name, Type: "static", Image: cs.Image, Build: cs.Build, JobWatch: cs.jobWatch(),
			Visibility: cs.Labels[labelVisibility]}
		if p, err := strconv.Atoi(cs.Labels[labelPort]); err == nil {
			s.Public, s.Port = true, p
		}
		for _, def := range defs {
			if def["name"] != cs.Name {
				continue
			}
			if t, _ := def["type"].(string); t != "" {
				s.Type = t
			}
			if b, _ := def["job_watch"].(bool); b {
				s.JobWatch = true
			}
			if img, _ := def["image"].(string); img != "" {
				s.Image = img
			}
			s.PropID = def["prop_id"]
			s.Workdir, _ = def["workdir"].(string)
			s.Workflow, _ = def["workflow"].(string)
			s.EnvFilePath, _ = def["env_file_path"].(string)
			s.DockerfilePath, _ = def["dockerfile_path"].(string)
			if exp, _ := def["exposure"].(map[string]any); exp != nil && exp["enabled"] == true {
				s.Public = true
				if p, ok, _ := integer(exp, "port"); ok {
					s.Port = int(p)
				}
				s.Subdomain, _ = exp["subdomain"].(string)
				if v, _ := exp["visibility"].(string); v != "" {
					s.Visibility = v
				}
			}
		}
		if s.Public && s.Visibility == "" {
			s.Visibility = "external"
		}
		out = append(out, s)
	}
	return out, nil
}

// maxMountedFiles bounds the files of one playspec.
const maxMountedFiles = 20

// addMountedFile reads a multipart upload: the file part "file", the
// fields mount_path and readonly ("true" or "false") and, optionally,
// target_services (repeated, or target_services[]).
func (s *Server) addMountedFile(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	form, err := rc.multipartForm()
	if err != nil {
		return nil, err
	}
	files := form.File["file"]
	if len(files) != 1 {
		return nil, invalid("file", "must be one uploaded file")
	}
	mf := &mountedFile{Filename: storedFilename(files[0].Filename), ByteSize: files[0].Size, ReadOnly: true}
	if mf.Filename == "" {
		return nil, invalid("file", "needs a file name")
	}
	body, err := files[0].Open()
	if err != nil {
		return nil, badRequest("unreadable file part")
	}
	data, err := io.ReadAll(body)
	_ = body.Close()
	if err != nil {
		return nil, badRequest("unreadable file part")
	}
	sum := sha256.Sum256(data)
	mf.SHA256 = hex.EncodeToString(sum[:])
	mf.ContentType = files[0].Header.Get("Content-Type")
	if mf.ContentType == "" || mf.ContentType == "application/octet-stream" {
		mf.ContentType = http.DetectContentType(data)
	}
	value := func(k string) (string, bool) {
		v, ok := form.Value[k]
		if !ok || len(v) == 0 {
			return "", false
		}
		return v[len(v)-1], true
	}
	mountPath, _ := value("mount_path")
	if err := checkMountPath(mountPath); err != nil {
		return nil, err
	}
	mf.MountPath = mountPath
	if v, ok := value("readonly"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, invalid("readonly", "must be true or false")
		}
		mf.ReadOnly = b
	}
	targets := append(append([]string{}, form.Value["target_services"]...), form.Value["target_services[]"]...)
	if mf.TargetServices, err = targetServices(ps, targets); err != nil {
		return nil, err
	}
	kept := slices.DeleteFunc(append([]*mountedFile{}, ps.MountedFiles...), func(x *mountedFile) bool { return x.Filename == mf.Filename })
	if slices.ContainsFunc(kept, func(x *mountedFile) bool { return x.MountPath == mf.MountPath }) {
		return nil, invalid("mount_path", "is already used by another mounted file")
	}
	if len(kept) >= maxMountedFiles {
		return nil, invalid("file", "is one too many: a playspec mounts at most "+itoa(maxMountedFiles)+" files")
	}
	ps.MountedFiles = append(kept, mf)
	ps.UpdatedAt = rc.now
	return rc.playspecChanged(ps, http.StatusCreated), nil
}

// multipartForm parses the request body as multipart/form-data.
func (rc *reqCtx) multipartForm() (*multipart.Form, error) {
	mt, params, err := mime.ParseMediaType(rc.c.header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, newAPIError(http.StatusUnsupportedMediaType, codeBadRequest, "request body must be multipart/form-data with a file part", nil)
	}
	form, err := multipart.NewReader(bytes.NewReader(rc.c.body), params["boundary"]).ReadForm(maxBodyBytes)
	if err != nil {
		return nil, badRequest("malformed multipart body")
	}
	return form, nil
}

// storedFilename is the name a mounted file is kept under: the base name,
// with characters other than letters, digits, dot, dash and underscore
// replaced.
func storedFilename(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == ".." {
		return ""
	}
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
}

func checkMountPath(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return invalid("mount_path", "can't be blank")
	case !strings.HasPrefix(p, "/") || path.Clean(p) != p || p == "/":
		return invalid("mount_path", "must be an absolute, clean file path (e.g. /etc/nginx/nginx.conf)")
	}
	return nil
}

// targetServices checks that every name is a service of ps; none means all.
func targetServices(ps *playspec, names []string) ([]string, error) {
	out := []string{}
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part == "" || slices.Contains(out, part) {
				continue
			}
			if !ps.hasService(part) {
				return nil, invalid("target_services", strconv.Quote(part)+" is not a service of the playspec ("+strings.Join(ps.serviceNames(), ", ")+")")
			}
			out = append(out, part)
		}
	}
	return out, nil
}

// mountedFileRef finds the mounted file a JSON body names by "filename".
func (rc *reqCtx) mountedFileRef(ps *playspec) (*mountedFile, error) {
	name, ok, err := str(rc.body, "filename")
	if err != nil {
		return nil, err
	}
	if !ok || name == "" {
		return nil, invalid("filename", "can't be blank")
	}
	for _, f := range ps.MountedFiles {
		if f.Filename == name {
			return f, nil
		}
	}
	return nil, notFound("mounted file " + strconv.Quote(name))
}

func (s *Server) updateMountedFile(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	mf, err := rc.mountedFileRef(ps)
	if err != nil {
		return nil, err
	}
	updated := *mf
	if p, ok, err := str(rc.body, "mount_path"); err != nil {
		return nil, err
	} else if ok {
		if err := checkMountPath(p); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(ps.MountedFiles, func(x *mountedFile) bool { return x != mf && x.MountPath == p }) {
			return nil, invalid("mount_path", "is already used by another mounted file")
		}
		updated.MountPath = p
	}
	if _, present := rc.body["readonly"]; present {
		if updated.ReadOnly, err = boolean(rc.body, "readonly"); err != nil {
			return nil, err
		}
	}
	if v, present := rc.body["target_services"]; present && v != nil {
		list, ok := v.([]any)
		names := make([]string, 0, len(list))
		for _, x := range list {
			s, isStr := x.(string)
			ok = ok && isStr
			names = append(names, s)
		}
		if !ok {
			return nil, invalid("target_services", "must be a list of service names")
		}
		if updated.TargetServices, err = targetServices(ps, names); err != nil {
			return nil, err
		}
	}
	*mf = updated
	ps.UpdatedAt = rc.now
	return rc.playspecChanged(ps, http.StatusOK), nil
}

func (s *Server) removeMountedFile(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	mf, err := rc.mountedFileRef(ps)
	if err != nil {
		return nil, err
	}
	ps.MountedFiles = slices.DeleteFunc(ps.MountedFiles, func(x *mountedFile) bool { return x == mf })
	ps.UpdatedAt = rc.now
	return rc.playspecChanged(ps, http.StatusOK), nil
}

// credentialsBody is the answer of the registry credential routes.
type credentialsBody struct {
	Credentials []*registryCredential `json:"credentials"`
}

func (s *Server) addRegistryCredential(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	cred := &registryCredential{}
	for _, f := range []struct {
		field string
		into  *string
	}{{"registry_type", &cred.RegistryType}, {"registry_url", &cred.RegistryURL}, {"username", &cred.Username}, {"secret", nil}} {
		v, _, err := str(rc.body, f.field)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(v) == "" {
			return nil, invalid(f.field, "can't be blank")
		}
		if f.into != nil {
			*f.into = strings.TrimSpace(v)
		}
	}
	if !slices.Contains(registryTypes, cred.RegistryType) {
		return nil, invalid("registry_type", "must be one of "+strings.Join(registryTypes, ", "))
	}
	if strings.ContainsAny(cred.RegistryURL, " \t\n") {
		return nil, invalid("registry_url", "is not a registry address")
	}
	ps.CredSerial++
	cred.ID = strconv.FormatInt(ps.CredSerial, 10)
	ps.Credentials = append(ps.Credentials, cred)
	ps.UpdatedAt = rc.now
	rc.emit("playspec.updated", "Playspec", ps.ID, rc.st.playspecDetailOf(ps))
	return jsonReply(http.StatusCreated, credentialsBody{Credentials: append([]*registryCredential{}, ps.Credentials...)}), nil
}

func (s *Server) removeRegistryCredential(rc *reqCtx) (*reply, error) {
	ps, err := rc.pathPlayspec()
	if err != nil {
		return nil, err
	}
	id, ok, err := ref(rc.body, "credential_id")
	if err != nil || !ok {
		return nil, invalid("credential_id", "can't be blank")
	}
	n := len(ps.Credentials)
	ps.Credentials = slices.DeleteFunc(ps.Credentials, func(c *registryCredential) bool { return c.ID == id })
	if len(ps.Credentials) == n {
		return nil, notFound("registry credential " + strconv.Quote(id))
	}
	ps.UpdatedAt = rc.now
	rc.emit("playspec.updated", "Playspec", ps.ID, rc.st.playspecDetailOf(ps))
	return jsonReply(http.StatusOK, credentialsBody{Credentials: append([]*registryCredential{}, ps.Credentials...)}), nil
}

// composeValidation is the answer of POST /api/compose_validations.
type composeValidation struct {
	Valid    bool          `json:"valid"`
	Services []serviceSpec `json:"services"`
	Errors   []string      `json:"errors"`
	Warnings []string      `json:"warnings"`
}

// validateCompose checks a compose as a create would, without keeping
// anything: {"compose_yaml", "target_type"?, "job_mode"?}, not wrapped. A
// job-mode compose (job_mode, or target_type "trick") needs a watched
// service.
func (s *Server) validateCompose(rc *reqCtx) (*reply, error) {
	src, ok, err := str(rc.body, "compose_yaml")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, invalid("compose_yaml", "can't be blank")
	}
	target, _, err := str(rc.body, "target_type")
	if err != nil {
		return nil, err
	}
	jobMode, err := boolean(rc.body, "job_mode")
	if err != nil {
		return nil, err
	}
	check := readCompose(src)
	out := composeValidation{Services: []serviceSpec{}, Errors: append([]string{}, check.Errors...), Warnings: append([]string{}, check.Warnings...)}
	if len(check.Errors) == 0 {
		out.Services, _ = deriveServices(check.Services, nil)
		if (jobMode || target == "trick") && !slices.ContainsFunc(out.Services, func(s serviceSpec) bool { return s.JobWatch }) {
			out.Errors = append(out.Errors, "job mode needs at least one service labelled "+labelJobWatch+": \"true\"")
		}
	}
	out.Valid = len(out.Errors) == 0
	return jsonReply(http.StatusOK, out), nil
}
