package localapi

import (
	"net/http"
	"strconv"
	"strings"
)

// Launches (docs/api.md, Launch): a compose file, or a template's version,
// becomes a playspec of the player's and, on a marquee, a playground of
// it, in one call. Each launch creates new resources: only a retry under
// the same Idempotency-Key is answered by the replay rather than launched
// again.

func (s *Server) launchRoutes(rt *router) {
	rt.add("POST", "/api/launches", "launch:write", s.launch)
	rt.add("POST", "/api/import_templates/{id}/launches", "launch:write", s.launchTemplate)
}

// launchResult is the answer of a launch. A template launch also names
// the playground (id, name, status): the platform's SDK reads those from
// that route.
type launchResult struct {
	PlayspecID   int64   `json:"playspec_id"`
	PlaygroundID *int64  `json:"playground_id"`
	PropsCreated []int64 `json:"props_created"`
	ID           *int64  `json:"id,omitempty"`
	Name         string  `json:"name,omitempty"`
	Status       string  `json:"status,omitempty"`
}

func (s *Server) launch(rc *reqCtx) (*reply, error) {
	compose, hasCompose, err := str(rc.body, "compose_yaml")
	if err != nil {
		return nil, err
	}
	repo, hasRepo, err := str(rc.body, "repository_url")
	if err != nil {
		return nil, err
	}
	switch {
	case hasCompose && compose != "" && hasRepo && repo != "":
		return nil, invalid("repository_url", "cannot be combined with compose_yaml")
	case hasRepo && repo != "":
		return nil, invalid("repository_url", "cannot be read: the emulator reaches no git host (send compose_yaml)")
	case strings.TrimSpace(compose) == "":
		return nil, invalid("compose_yaml", "can't be blank")
	}
	name, _, err := str(rc.body, "name")
	if err != nil {
		return nil, err
	}
	res, _, err := rc.launchCompose(name, compose)
	if err != nil {
		return nil, err
	}
	return jsonReply(http.StatusCreated, res), nil
}

// launchTemplate launches a version of a template one may read: body's
// "version" (its number), or the latest one may launch.
func (s *Server) launchTemplate(rc *reqCtx) (*reply, error) {
	t, err := rc.visibleTemplate(rc.param(0))
	if err != nil {
		return nil, err
	}
	if _, has, err := ref(rc.body, "marquee_id"); err != nil {
		return nil, err
	} else if !has {
		return nil, invalid("marquee_id", "can't be blank")
	}
	mine := t.Owner == rc.player
	var v *templateVersion
	if n, has, err := integer(rc.body, "version"); err != nil {
		return nil, err
	} else if has {
		for _, x := range t.Versions {
			if x.Version == n && (mine || x.Public) {
				v = x
			}
		}
		if v == nil {
			return nil, invalid("version", "is not a version of the template one may launch")
		}
	} else if mine {
		v = t.latest()
	} else {
		v = t.latestPublic()
	}
	name, has, err := str(rc.body, "name")
	if err != nil {
		return nil, err
	}
	if !has || name == "" {
		name = rc.launchName(t.Name)
	}
	res, pg, err := rc.launchCompose(name, v.TemplateBody)
	if err != nil {
		return nil, err
	}
	if pg != nil {
		res.ID, res.Name, res.Status = &pg.ID, pg.Name, pg.Status
	}
	return jsonReply(http.StatusCreated, res), nil
}

// launchName is a free playspec name made of a template's name.
func (rc *reqCtx) launchName(template string) string {
	base := strings.Trim(strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, template), "-")
	if len(base) > 50 {
		base = strings.TrimRight(base[:50], "-")
	}
	if base == "" || isNumeric(base) {
		base = "launch"
	}
	for i := 1; ; i++ {
		name := base + "-" + strconv.Itoa(i)
		if rc.st.findPlayspec(rc.player, name) == nil && rc.findPlayground(name) == nil {
			return name
		}
	}
}

// launchCompose is what every launch does with its name and compose: the
// checks first (nothing is created when one fails), then the playspec
// and, on the marquee when one is given and create_playground is not
// false, a playground of it.
func (rc *reqCtx) launchCompose(name, compose string) (launchResult, *playground, error) {
	res := launchResult{PropsCreated: []int64{}}
	if err := validateName(name); err != nil {
		return res, nil, err
	}
	if err := composeProblem(compose); err != nil {
		return res, nil, err
	}
	if rc.st.findPlayspec(rc.player, name) != nil {
		return res, nil, invalid("name", "has already been taken by a playspec")
	}
	var m *marquee
	if mq, has, err := ref(rc.body, "marquee_id"); err != nil {
		return res, nil, err
	} else if has {
		if m = findOwned(rc.st.Marquees, rc.player, mq); m == nil {
			return res, nil, invalid("marquee_id", "does not exist")
		}
	}
	withPlayground := m != nil
	if v, ok := rc.body["create_playground"]; ok && v != nil {
		b, err := boolean(rc.body, "create_playground")
		if err != nil {
			return res, nil, err
		}
		if b && m == nil {
			return res, nil, invalid("marquee_id", "can't be blank when create_playground is true")
		}
		withPlayground = b && m != nil
	}
	env, _, err := stringMap(rc.body, "env_overrides")
	if err != nil {
		return res, nil, err
	}
	jobMode, err := boolean(rc.body, "job_mode")
	if err != nil {
		return res, nil, err
	}
	persist, err := boolean(rc.body, "persist_volumes")
	if err != nil {
		return res, nil, err
	}
	if withPlayground {
		if rc.findPlayground(name) != nil {
			return res, nil, invalid("name", "has already been taken by a playground")
		}
		if err := rc.requireFunded(m.ID); err != nil {
			return res, nil, err
		}
	}
	ps := &playspec{Owner: rc.player, Name: name, CreatedAt: rc.now, UpdatedAt: rc.now}
	if err := playspecFields(map[string]any{"base_compose_yaml": compose, "job_mode": jobMode, "persist_volumes": persist}, ps); err != nil {
		return res, nil, err
	}
	ps.ID = rc.st.nextID("playspec")
	rc.st.Playspecs = append(rc.st.Playspecs, ps)
	rc.emit("playspec.created", "Playspec", ps.ID, rc.st.playspecDetailOf(ps))
	res.PlayspecID = ps.ID
	if !withPlayground {
		return res, nil, nil
	}
	pg := rc.addPlayground(name, m, ps.ID, env)
	rc.emit("playground.created", "Playground", pg.ID, rc.st.playgroundView(pg, rc.now))
	res.PlaygroundID = &pg.ID
	return res, pg, nil
}

// composeProblem checks a launch's compose as a playspec create would,
// naming the launch's own field.
func composeProblem(compose string) error {
	if check := readCompose(compose); len(check.Errors) > 0 {
		return newAPIError(http.StatusUnprocessableEntity, codeValidation, "compose_yaml "+check.Errors[0],
			map[string]any{"compose_yaml": check.Errors})
	}
	return nil
}
