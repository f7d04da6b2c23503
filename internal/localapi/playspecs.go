package localapi

import (
	"net/http"
	"strconv"
)

// playspec is a template for playgrounds. The set is fixed: `web` works,
// `broken` fails every rollout at the build step (image_pull_failed).
type playspec struct {
	ID          int64
	Name        string
	Description string
	Services    []serviceSpec
	Broken      bool
}

type serviceSpec struct {
	Name   string
	Public bool // has a service URL
}

var playspecs = []playspec{
	{ID: 1, Name: "web", Description: "A web app with a worker and a database",
		Services: []serviceSpec{{"web", true}, {"worker", false}, {"db", false}}},
	{ID: 2, Name: "broken", Description: "A web app whose image cannot be pulled: every rollout fails at the build step",
		Broken: true, Services: []serviceSpec{{"web", true}, {"db", false}}},
}

// playspecNames lists the playspecs, for messages that name the known ones.
func playspecNames() []string {
	out := make([]string, len(playspecs))
	for i, ps := range playspecs {
		out[i] = ps.Name
	}
	return out
}

// playspecView is a playspec as GET /api/playspecs shows it.
type playspecView struct {
	ID          int64                 `json:"id"`
	Name        string                `json:"name"`
	Description string                `json:"description"`
	Services    []playspecServiceView `json:"services"`
}

type playspecServiceView struct {
	Name   string `json:"name"`
	Public bool   `json:"public"` // exposed with a service URL
}

func (ps *playspec) view() playspecView {
	v := playspecView{ID: ps.ID, Name: ps.Name, Description: ps.Description, Services: []playspecServiceView{}}
	for _, s := range ps.Services {
		v.Services = append(v.Services, playspecServiceView{Name: s.Name, Public: s.Public})
	}
	return v
}

func (s *Server) listPlayspecs(rc *reqCtx) *reply {
	page, perPage, bad := pageParams(rc.c.query)
	if bad != nil {
		return bad
	}
	items := make([]playspecView, 0, len(playspecs))
	for i := range playspecs {
		items = append(items, playspecs[i].view())
	}
	return paginate(items, page, perPage)
}

func (s *Server) getPlayspec(rc *reqCtx) *reply {
	ps := findPlayspec(rc.param(0))
	if ps == nil {
		return notFound("playspec " + strconv.Quote(rc.param(0)))
	}
	return jsonReply(http.StatusOK, ps.view())
}

// findPlayspec resolves an id or a name.
func findPlayspec(ref string) *playspec {
	for i := range playspecs {
		ps := &playspecs[i]
		if ps.Name == ref || strconv.FormatInt(ps.ID, 10) == ref {
			return ps
		}
	}
	return nil
}

func playspecByID(id int64) *playspec {
	return findPlayspec(strconv.FormatInt(id, 10))
}

func (ps *playspec) hasService(name string) bool {
	for _, s := range ps.Services {
		if s.Name == name {
			return true
		}
	}
	return false
}

func (ps *playspec) serviceNames() []string {
	out := make([]string, len(ps.Services))
	for i, s := range ps.Services {
		out[i] = s.Name
	}
	return out
}
