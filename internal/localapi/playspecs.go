package localapi

import "strconv"

// playspec is a template for playgrounds. The set is fixed: `web` works,
// `broken` fails every rollout at the build step (image_pull_failed).
type playspec struct {
	ID       int64
	Name     string
	Services []serviceSpec
	Broken   bool
}

type serviceSpec struct {
	Name   string
	Public bool // has a service URL
}

var playspecs = []playspec{
	{ID: 1, Name: "web", Services: []serviceSpec{{"web", true}, {"worker", false}, {"db", false}}},
	{ID: 2, Name: "broken", Broken: true, Services: []serviceSpec{{"web", true}, {"db", false}}},
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
