package localapi

import (
	"net/http"
	"strconv"
)

// playspec is a template for playgrounds. The set is fixed: `web` works,
// `broken` fails every rollout at the build step (image_pull_failed).
type playspec struct {
	id          int64
	name        string
	description string
	services    []serviceSpec
	broken      bool
	job         bool // a job playspec: its playgrounds are tricks (tricks.go)
}

type serviceSpec struct {
	name    string
	public  bool // has a service URL
	watched bool // a job's service whose exit code counts (tricks.go)
}

var playspecs = []playspec{
	{id: 1, name: "web", description: "A web app with a worker and a database",
		services: []serviceSpec{{"web", true, false}, {"worker", false, false}, {"db", false, false}}},
	{id: 2, name: "broken", description: "A web app whose image cannot be pulled: every rollout fails at the build step",
		broken: true, services: []serviceSpec{{"web", true, false}, {"db", false, false}}},
}

// playspecNames lists the playspecs, for messages that name the known ones.
func playspecNames() []string {
	out := make([]string, len(playspecs))
	for i, ps := range playspecs {
		out[i] = ps.name
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
	v := playspecView{ID: ps.id, Name: ps.name, Description: ps.description, Services: []playspecServiceView{}}
	for _, s := range ps.services {
		v.Services = append(v.Services, playspecServiceView{Name: s.name, Public: s.public})
	}
	return v
}

func (s *Server) listPlayspecs(rc *reqCtx) (*reply, error) {
	page, perPage, err := pageParams(rc.c.query)
	if err != nil {
		return nil, err
	}
	items := make([]playspecView, 0, len(playspecs))
	for i := range playspecs {
		items = append(items, playspecs[i].view())
	}
	return paginate(items, page, perPage), nil
}

func (s *Server) getPlayspec(rc *reqCtx) (*reply, error) {
	ps := findPlayspec(rc.param(0))
	if ps == nil {
		return nil, notFound("playspec " + strconv.Quote(rc.param(0)))
	}
	return jsonReply(http.StatusOK, ps.view()), nil
}

// findPlayspec resolves an id or a name.
func findPlayspec(ref string) *playspec {
	for i := range playspecs {
		ps := &playspecs[i]
		if ps.name == ref || strconv.FormatInt(ps.id, 10) == ref {
			return ps
		}
	}
	return nil
}

func playspecByID(id int64) *playspec {
	return findPlayspec(strconv.FormatInt(id, 10))
}

func (ps *playspec) hasService(name string) bool {
	for _, s := range ps.services {
		if s.name == name {
			return true
		}
	}
	return false
}

func (ps *playspec) serviceNames() []string {
	out := make([]string, len(ps.services))
	for i, s := range ps.services {
		out[i] = s.name
	}
	return out
}
