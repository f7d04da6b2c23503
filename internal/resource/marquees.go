package resource

import (
	"context"
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

func marquees() *Resource {
	return &Resource{
		Name: "marquees", Singular: "marquee", Aliases: []string{"mq", "marquee"},
		Short:   "Manage marquees, the servers playgrounds run on",
		Path:    "/api/marquees",
		Wrapper: "marquee",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "name", Arg: "name", Help: "Name of the marquee", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "host", Arg: "host", Help: "Host name or address", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "port", Arg: "port", Kind: Int, Min: 1, Max: 65535, Help: "SSH port (default 22)", On: []Verb{VerbCreate, VerbUpdate}},
			{Wire: "user", Arg: "user", Help: "SSH user", On: []Verb{VerbCreate, VerbUpdate}},
			{Wire: "ssh_private_key", Arg: "ssh-key-file", Kind: File, WriteOnly: true,
				Help: "File holding the SSH private key (sent once, never printed)", On: []Verb{VerbCreate, VerbUpdate}},
		},
		Statuses: []string{"active", "disabled"},
		SortKeys: []string{"id", "name", "status", "host", "created_at", "updated_at"},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "HOST", Key: "host"},
			{Header: "PORT", Key: "port"},
			{Header: "USER", Key: "user"},
			{Header: "STATUS", Key: "status", Kind: Status},
			{Header: "FUNDED", Key: "billing_runtime_active", Kind: YesNo},
			{Header: "PAID UNTIL", Key: "paid_until", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Host", Key: "host"},
			{Header: "Port", Key: "port"},
			{Header: "User", Key: "user"},
			{Header: "Status", Key: "status", Kind: Status},
			{Header: "Paid until", Key: "paid_until", Kind: Time},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Actions: []Action{
			{Name: "test-connection", Wire: "test_connection", Help: "Check that Fibe can reach a marquee over SSH", Progress: "Testing the connection to", Async: true, Path: "/connection_tests",
				Result: reflect.TypeFor[client.ConnectionTest]()},
		},
		Item: reflect.TypeFor[client.Marquee](),
		ops:  marqueeOps(),
	}
}

// marqueeOps are the generic verbs and the connection test on the
// client's marquees service.
func marqueeOps() ops {
	o := writeOps[client.Marquee](func(c *client.Client) *client.MarqueesService { return c.Marquees })
	o.action = func(ctx context.Context, c *client.Client, ref string, _ Action, _ bool, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
		res, resp, err := c.Marquees.TestConnection(ctx, ref, mo, wo)
		return nilIfNone(res), resp, err
	}
	return o
}
