package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// playspecs are read here (a playground names one); creating them is the
// platform's next resources' work.
func playspecs() *Resource {
	return &Resource{
		Name: "playspecs", Singular: "playspec", Aliases: []string{"ps", "playspec"},
		Short: "Playspecs, the templates playgrounds are made from",
		Path:  "/api/playspecs",
		Verbs: []Verb{VerbList, VerbGet},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "DESCRIPTION", Key: "description"},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Description", Key: "description"},
		},
		Item: reflect.TypeFor[client.Playspec](),
		ops:  readOps[client.Playspec](func(c *client.Client) *client.PlayspecsService { return c.Playspecs }),
	}
}
