package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// playspecs are the templates playgrounds are made from: a compose file
// (base_compose_yaml) and what the platform adds to it. The compose is
// checked as YAML before it is sent; service definitions, trigger, muti
// and schedule configs go in a payload (-f).
// trueFalse are the values of a yes-or-no list filter.
var trueFalse = []string{"true", "false"}

func playspecs() *Resource {
	both := []Verb{VerbCreate, VerbUpdate}
	return &Resource{
		Name: "playspecs", Singular: "playspec", Aliases: []string{"ps", "playspec"},
		Short:   "Manage playspecs, the templates playgrounds are made from",
		Path:    "/api/playspecs",
		Wrapper: "playspec",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "name", Arg: "name", Help: "Name of the playspec", On: both, Required: true},
			{Wire: "description", Arg: "description", Help: "What the playspec is for", On: both},
			{Wire: "base_compose_yaml", Arg: "compose", Kind: File, Check: CheckYAML,
				Help: "File holding the Docker Compose YAML of the playspec (- for stdin)", On: both, Required: true},
			{Wire: "persist_volumes", Arg: "persist-volumes", Kind: Bool, Help: "Keep the volumes of its playgrounds across rollouts", On: both},
			{Wire: "job_mode", Arg: "job-mode", Kind: Bool, Help: "Make job-mode playgrounds, which end when their watched services do", On: both},
		},
		SortKeys: []string{"created_at", "name"},
		Filters: []Filter{
			{Arg: "job-mode", Query: "job_mode", Values: trueFalse, Help: "Only job-mode playspecs (true) or only the others (false)"},
			{Arg: "locked", Query: "locked", Values: trueFalse, Help: "Only locked playspecs (true) or only the others (false)"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "DESCRIPTION", Key: "description"},
			{Header: "JOB MODE", Key: "job_mode", Kind: YesNo},
			{Header: "PLAYGROUNDS", Key: "playground_count"},
			{Header: "CREATED", Key: "created_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Description", Key: "description"},
			{Header: "Job mode", Key: "job_mode", Kind: YesNo},
			{Header: "Persist volumes", Key: "persist_volumes", Kind: YesNo},
			{Header: "Locked", Key: "locked", Kind: YesNo},
			{Header: "Playgrounds", Key: "playground_count"},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Item: reflect.TypeFor[client.Playspec](),
		ops:  writeOps[client.Playspec](func(c *client.Client) *client.Collection[client.Playspec] { return c.Playspecs.Collection }),
	}
}
