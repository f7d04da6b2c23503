package resource

import (
	"context"
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
		ops: ops{
			list: func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, *client.ListMeta, error) {
				return c.Playspecs.List(ctx, lo)
			},
			listAll: func(ctx context.Context, c *client.Client, lo client.ListOptions) (any, error) {
				return c.Playspecs.ListAll(ctx, lo)
			},
			get: func(ctx context.Context, c *client.Client, ref string) (any, *client.Response, error) {
				ps, resp, err := c.Playspecs.Get(ctx, ref)
				return nilIfNone(ps), resp, err
			},
		},
	}
}
