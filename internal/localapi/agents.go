package localapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Agents (docs/api.md, Agents): CRUD, copies and runtime status. The chat
// routes are not served; every agent's runtime is stopped.

// agentState is the agents family.
type agentState struct {
	Agents []*agent `json:"agents"`
}

// agent is the stored form. Settings holds every optional field as it was
// accepted, by wire name; view shows the whole set.
type agent struct {
	ID        int64              `json:"id"`
	Owner     int64              `json:"owner"`
	Name      string             `json:"name"`
	Provider  string             `json:"provider"`
	Settings  map[string]any     `json:"settings,omitempty"`
	Mounted   []agentMountedFile `json:"mounted_files,omitempty"`
	CreatedAt time.Time          `json:"created_at"`
	UpdatedAt time.Time          `json:"updated_at"`
}

type agentMountedFile struct {
	Name           string   `json:"name"`
	Path           string   `json:"path"`
	ContentType    string   `json:"content_type"`
	TargetServices []string `json:"target_services"`
	ReadOnly       bool     `json:"readonly"`
}

func (a *agent) identity() (int64, string) { return a.ID, a.Name }
func (a *agent) owner() int64              { return a.Owner }

// agentProviders are the providers an agent may run, with their labels.
var agentProviders = map[string]string{
	"gemini":       "Gemini CLI",
	"antigravity":  "Antigravity",
	"claude-code":  "Claude Code",
	"openai-codex": "OpenAI Codex",
	"opencode":     "OpenCode",
	"cursor":       "Cursor",
}

func providerNames() []string {
	names := make([]string, 0, len(agentProviders))
	for n := range agentProviders {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// maxAgentName bounds an agent's name, in characters.
const maxAgentName = 255

// The optional fields by kind. Texts are shown as null until set.
var (
	agentTexts = []string{"description", "model_options", "memory_limit", "cpu_limit", "prompt", "system_prompt",
		"main_md", "mcp_json", "post_init_script", "custom_env", "cli_version", "provider_args_cli"}
	agentModes = map[string][]string{ // field → allowed values; the first is the default
		"mode":               {"default", "plan", "auto"},
		"system_prompt_mode": {"append", "replace"},
		"main_md_mode":       {"append", "replace"},
	}
	agentBools   = []string{"sync_enabled", "syscheck_enabled", "build_in_public", "provider_api_key_mode"}
	agentObjects = []string{"settings", "provider_args"}
	// agentDefaults are what effective_* falls back on.
	agentDefaults = map[string]string{"memory_limit": "2g", "cpu_limit": "1", "cli_version": "latest"}
)

// readAgentFields validates the optional fields of obj into settings
// (create: every field, update: those given). A field of the wrong type
// is a 422 naming it.
func (rc *reqCtx) readAgentFields(obj map[string]any, settings map[string]any) error {
	for _, f := range agentTexts {
		if v, ok := obj[f]; ok {
			if v == nil {
				delete(settings, f)
				continue
			}
			s, ok := v.(string)
			if !ok {
				return invalid(f, "must be a string")
			}
			settings[f] = s
		}
	}
	for f, allowed := range agentModes {
		s, has, err := str(obj, f)
		if err != nil {
			return err
		}
		if has {
			if !slices.Contains(allowed, s) {
				return invalid(f, "is not included in the list ("+strings.Join(allowed, ", ")+")")
			}
			settings[f] = s
		}
	}
	for _, f := range agentBools {
		if _, ok := obj[f]; ok {
			b, err := boolean(obj, f)
			if err != nil {
				return err
			}
			settings[f] = b
		}
	}
	for _, f := range agentObjects {
		if v, ok := obj[f]; ok && v != nil {
			m, ok := v.(map[string]any)
			if !ok {
				return invalid(f, "must be an object")
			}
			settings[f] = m
		}
	}
	if v, ok := obj["skill_toggles"]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return invalid("skill_toggles", "must be an object of booleans")
		}
		for _, x := range m {
			if _, ok := x.(bool); !ok {
				return invalid("skill_toggles", "must be an object of booleans")
			}
		}
		settings["skill_toggles"] = m
	}
	if id, has, err := integer(obj, "api_key_id"); err != nil {
		return err
	} else if has {
		settings["api_key_id"] = id
	}
	if r, has, err := ref(obj, "build_in_public_playground_id"); err != nil {
		return err
	} else if has {
		pg := findOwned(rc.st.Playgrounds, rc.player, r)
		if pg == nil {
			return invalid("build_in_public_playground_id", "does not exist")
		}
		settings["build_in_public_playground_id"] = pg.ID
	}
	return nil
}

// agentName checks a name: not blank, at most maxAgentName characters.
// Any other text is kept byte for byte.
func agentName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("name", "can't be blank")
	case utf8.RuneCountInString(name) > maxAgentName:
		return invalid("name", "is too long (maximum is "+strconv.Itoa(maxAgentName)+" characters)")
	}
	return nil
}

// readMounts reads a create's mounts into mounted files.
func readMounts(obj map[string]any) ([]agentMountedFile, error) {
	v, ok := obj["mounts"]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, invalid("mounts", "must be a list of objects")
	}
	var out []agentMountedFile
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, invalid("mounts", "must be a list of objects")
		}
		name, _, err := str(m, "filename")
		if err != nil {
			return nil, invalid("mounts", "filename must be a string")
		}
		if name == "" {
			return nil, invalid("mounts", "filename can't be blank")
		}
		path, _, _ := str(m, "mount_path")
		if path == "" {
			path = "/app/" + name
		}
		ct, _, _ := str(m, "content_type")
		if ct == "" {
			ct = "application/octet-stream"
		}
		ro, err := boolean(m, "readonly")
		if err != nil {
			return nil, invalid("mounts", "readonly must be true or false")
		}
		mf := agentMountedFile{Name: name, Path: path, ContentType: ct, ReadOnly: ro, TargetServices: []string{}}
		if ts, ok := m["target_services"].([]any); ok {
			for _, s := range ts {
				if str, ok := s.(string); ok {
					mf.TargetServices = append(mf.TargetServices, str)
				}
			}
		}
		out = append(out, mf)
	}
	return out, nil
}

func (s *Server) createAgent(rc *reqCtx) (*reply, error) {
	obj, err := rc.object("agent")
	if err != nil {
		return nil, err
	}
	name, _, err := str(obj, "name")
	if err != nil {
		return nil, err
	}
	if err := agentName(name); err != nil {
		return nil, err
	}
	provider, _, err := str(obj, "provider")
	if err != nil {
		return nil, err
	}
	if provider == "" {
		return nil, invalid("provider", "can't be blank")
	}
	if _, ok := agentProviders[provider]; !ok {
		return nil, invalid("provider", "is not included in the list ("+strings.Join(providerNames(), ", ")+")")
	}
	settings := map[string]any{}
	if err := rc.readAgentFields(obj, settings); err != nil {
		return nil, err
	}
	mounts, err := readMounts(obj)
	if err != nil {
		return nil, err
	}
	a := &agent{ID: rc.st.nextID("agent"), Owner: rc.player, Name: name, Provider: provider,
		Settings: settings, Mounted: mounts, CreatedAt: rc.now, UpdatedAt: rc.now}
	rc.st.Agents = append(rc.st.Agents, a)
	v := a.view(false)
	rc.emit("agent.created", "Agent", a.ID, v)
	return jsonReply(http.StatusCreated, v), nil
}

func (rc *reqCtx) pathAgent() (*agent, error) {
	a := findOwned(rc.st.Agents, rc.player, rc.param(0))
	if a == nil {
		return nil, notFound("agent " + strconv.Quote(rc.param(0)))
	}
	return a, nil
}

func (s *Server) getAgent(rc *reqCtx) (*reply, error) {
	a, err := rc.pathAgent()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, a.view(false)), nil
}

func (s *Server) updateAgent(rc *reqCtx) (*reply, error) {
	a, err := rc.pathAgent()
	if err != nil {
		return nil, err
	}
	obj, err := rc.object("agent")
	if err != nil {
		return nil, err
	}
	for _, f := range []string{"provider", "mounts"} {
		if _, ok := obj[f]; ok {
			return nil, invalid(f, "can't be changed once the agent exists")
		}
	}
	if v, ok := rc.body["agent_rename_context"]; ok && v != nil {
		ctx, ok := v.(map[string]any)
		if !ok {
			return nil, invalid("agent_rename_context", "must be an object")
		}
		for _, f := range []string{"conversation_client_id", "conversation_title"} {
			if _, _, err := str(ctx, f); err != nil {
				return nil, invalid("agent_rename_context", f+" must be a string")
			}
		}
	}
	name, hasName, err := str(obj, "name")
	if err != nil {
		return nil, err
	}
	if hasName {
		if err := agentName(name); err != nil {
			return nil, err
		}
	}
	settings := make(map[string]any, len(a.Settings))
	for k, v := range a.Settings {
		settings[k] = v
	}
	if err := rc.readAgentFields(obj, settings); err != nil {
		return nil, err
	}
	if hasName {
		a.Name = name
	}
	a.Settings, a.UpdatedAt = settings, rc.now
	v := a.view(false)
	rc.emit("agent.updated", "Agent", a.ID, v)
	return jsonReply(http.StatusOK, v), nil
}

func (s *Server) deleteAgent(rc *reqCtx) (*reply, error) {
	a, err := rc.pathAgent()
	if err != nil {
		return nil, err
	}
	rc.st.Agents = slices.DeleteFunc(rc.st.Agents, func(x *agent) bool { return x == a })
	rc.emit("agent.destroyed", "Agent", a.ID, map[string]any{"id": a.ID, "name": a.Name})
	return newReply(http.StatusNoContent), nil
}

// copyAgent is POST /api/agents/{id}/copies: the same configuration under
// a new id and a name none of the player's agents has.
func (s *Server) copyAgent(rc *reqCtx) (*reply, error) {
	a, err := rc.pathAgent()
	if err != nil {
		return nil, err
	}
	settings := map[string]any{}
	if data, err := json.Marshal(a.Settings); err == nil {
		_ = json.Unmarshal(data, &settings) // a deep copy; the values came from JSON
	}
	cp := &agent{ID: rc.st.nextID("agent"), Owner: rc.player, Name: rc.copyName(a.Name), Provider: a.Provider,
		Settings: settings, Mounted: append([]agentMountedFile(nil), a.Mounted...), CreatedAt: rc.now, UpdatedAt: rc.now}
	rc.st.Agents = append(rc.st.Agents, cp)
	v := cp.view(false)
	rc.emit("agent.created", "Agent", cp.ID, v)
	return jsonReply(http.StatusCreated, v), nil
}

// copyName is "<name>-copy", then "-copy-2", ...: free among the player's
// agents and within the name's bound.
func (rc *reqCtx) copyName(name string) string {
	taken := map[string]bool{}
	for _, a := range rc.st.Agents {
		if a.Owner == rc.player {
			taken[a.Name] = true
		}
	}
	for n := 1; ; n++ {
		suffix := "-copy"
		if n > 1 {
			suffix += "-" + strconv.Itoa(n)
		}
		base := []rune(name)
		if room := maxAgentName - utf8.RuneCountInString(suffix); len(base) > room {
			base = base[:room]
		}
		if cand := string(base) + suffix; !taken[cand] {
			return cand
		}
	}
}

func (s *Server) agentRuntimeStatus(rc *reqCtx) (*reply, error) {
	a, err := rc.pathAgent()
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusOK, a.runtimeStatus()), nil
}

func (s *Server) listAgents(rc *reqCtx) (*reply, error) {
	lq, err := parseListQuery(rc.c.query, listSpec{sorts: []string{"created_at", "name"}})
	if err != nil {
		return nil, err
	}
	withRuntime, err := boolParam(rc.c.query, "include_runtime_status")
	if err != nil {
		return nil, err
	}
	provider := rc.c.query.Get("provider")
	if _, ok := agentProviders[provider]; provider != "" && !ok {
		return nil, invalid("provider", "is not included in the list ("+strings.Join(providerNames(), ", ")+")")
	}
	var items []map[string]any
	for _, a := range ownedBy(rc.st.Agents, rc.player) {
		desc, _ := a.Settings["description"].(string)
		if (provider == "" || a.Provider == provider) && lq.hasStatus(agentStatus) &&
			lq.has("name", a.Name) && lq.search(a.Name, desc, a.Provider) && lq.inTime(a.CreatedAt) {
			items = append(items, a.view(withRuntime != nil && *withRuntime))
		}
	}
	return listAnswer(items, lq, func(v map[string]any, col string) any { return v[col] }), nil
}

// agentStatus is every agent's status here: no chat runtime ever runs.
const agentStatus = "stopped"

func (a *agent) runtimeStatus() map[string]any {
	project := "agent-" + strconv.FormatInt(a.ID, 10)
	return map[string]any{
		"id": a.ID, "status": agentStatus, "chat_url": nil, "subdomain": project, "compose_project": project,
		"runtime_reachable": false, "authenticated": false, "is_processing": false, "queue_count": 0, "last_error": nil,
	}
}

// view is the agent as the API shows it: every field, null when unset,
// and the effective_* values the platform would apply.
func (a *agent) view(withRuntime bool) map[string]any {
	v := map[string]any{
		"id": a.ID, "name": a.Name, "provider": a.Provider, "provider_label": agentProviders[a.Provider],
		"status": agentStatus, "authenticated": false,
		"api_key_id": nil, "build_in_public_playground_id": nil,
		"settings": map[string]any{}, "provider_args": map[string]any{}, "skill_toggles": map[string]any{},
		"mounted_files": []agentMountedFile{}, "created_at": a.CreatedAt, "updated_at": a.UpdatedAt,
	}
	for _, f := range agentTexts {
		v[f] = nil
	}
	for f, allowed := range agentModes {
		v[f] = allowed[0]
	}
	for _, f := range agentBools {
		v[f] = false
	}
	for k, x := range a.Settings {
		v[k] = x
	}
	if len(a.Mounted) > 0 {
		v["mounted_files"] = a.Mounted
	}
	for _, f := range []string{"prompt", "main_md", "model_options", "memory_limit", "cpu_limit", "post_init_script", "cli_version"} {
		eff := v[f]
		if eff == nil {
			if d, ok := agentDefaults[f]; ok {
				eff = d
			}
		}
		v["effective_"+f] = eff
	}
	v["effective_provider_args"] = v["provider_args"]
	v["effective_skill_toggles"] = v["skill_toggles"]
	if withRuntime {
		v["runtime_status"] = a.runtimeStatus()
	}
	return v
}

func (s *Server) agentRoutes(rt *router) {
	rt.add("GET", "/api/agents", "agents:read", s.listAgents)
	rt.add("POST", "/api/agents", "agents:write", s.createAgent)
	rt.add("GET", "/api/agents/{id}", "agents:read", s.getAgent)
	rt.add("PATCH", "/api/agents/{id}", "agents:write", s.updateAgent)
	rt.add("PUT", "/api/agents/{id}", "agents:write", s.updateAgent)
	rt.add("DELETE", "/api/agents/{id}", "agents:delete", s.deleteAgent)
	rt.add("POST", "/api/agents/{id}/copies", "agents:write", s.copyAgent)
	rt.add("GET", "/api/agents/{id}/runtime_status", "agents:read", s.agentRuntimeStatus)
}

// seedAgents gives a new player no agents: they are made by the API.
func (st *state) seedAgents(player int64, now time.Time) {}
