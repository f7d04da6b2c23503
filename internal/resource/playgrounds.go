package resource

import (
	"context"
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

func playgrounds() *Resource {
	status := reflect.TypeFor[client.PlaygroundStatus]()
	return &Resource{
		Name: "playgrounds", Singular: "playground", Aliases: []string{"pg", "playground"},
		Short:   "Manage playgrounds, the running environments of a playspec",
		Path:    "/api/playgrounds",
		Wrapper: "playground",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "name", Arg: "name", Help: "Name of the playground", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "playspec_id", Arg: "playspec", Kind: Ref, Refers: "playspecs", Help: "Playspec id or name",
				On: []Verb{VerbCreate}, Required: true},
			{Wire: "marquee_id", Arg: "marquee", Kind: Ref, Refers: "marquees",
				Help: "Marquee id or name (default: the account's default marquee)", On: []Verb{VerbCreate}},
			{Wire: "env_overrides", Arg: "env", Kind: Env, Help: "Environment override KEY=VALUE (repeatable)",
				On: []Verb{VerbCreate, VerbUpdate}},
		},
		Statuses: []string{"pending", "creating", "building", "running", "stopped", "stopping", "error", "failed", "destroyed"},
		SortKeys: []string{"id", "name", "status", "created_at", "updated_at", "expires_at"},
		Filters: []Filter{
			{Arg: "playspec", Query: "playspec_id", Refers: "playspecs", Help: "Only playgrounds of this playspec (id or name)"},
			{Arg: "marquee", Query: "marquee_id", Refers: "marquees", Help: "Only playgrounds on this marquee (id or name)"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "STATUS", Key: "status", Kind: Status},
			{Header: "MARQUEE", Key: "marquee_name", Kind: NameOrID, Fallback: "marquee_id"},
			{Header: "PLAYSPEC", Key: "playspec_name", Kind: NameOrID, Fallback: "playspec_id"},
			{Header: "EXPIRES", Key: "expires_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Status", Key: "status", Kind: Status},
			{Header: "Marquee", Key: "marquee_name", Kind: NameOrID, Fallback: "marquee_id"},
			{Header: "Playspec", Key: "playspec_name", Kind: NameOrID, Fallback: "playspec_id"},
			{Header: "Reason", Key: "state_reason"},
			{Header: "Error", Key: "error_message"},
			{Header: "Expires", Key: "expires_at", Kind: Time},
			{Header: "Created", Key: "created_at", Kind: Time},
		},
		Actions: []Action{
			{Name: "rollout", Wire: "rollout", Help: "Roll out a playground (build and deploy)", Progress: "Rolling out", Force: true, Async: true, Path: "/operations", TypeField: "action_type", Result: status},
			{Name: "restart", Wire: "hard_restart", Help: "Restart a playground's services", Progress: "Restarting", Async: true, Path: "/operations", TypeField: "action_type", Result: status},
			{Name: "stop", Wire: "stop", Help: "Stop a playground (takes its services down)", Progress: "Stopping", Destroys: true, Async: true, Path: "/operations", TypeField: "action_type", Result: status},
			{Name: "start", Wire: "start", Help: "Start a stopped playground", Progress: "Starting", Async: true, Path: "/operations", TypeField: "action_type", Result: status},
		},
		CreateWaitsFor: "running",
		Item:           reflect.TypeFor[client.Playground](),
		ops:            playgroundOps(),
	}
}

// playgroundOps are the generic verbs, the actions and the wait of a
// create, on the client's playgrounds service.
func playgroundOps() ops {
	o := writeOps[client.Playground](func(c *client.Client) *client.PlaygroundsService { return c.Playgrounds })
	o.action = func(ctx context.Context, c *client.Client, ref string, a Action, force bool, mo client.MutationOptions, wo client.WaitOptions) (any, *client.Response, error) {
		st, resp, err := c.Playgrounds.Action(ctx, ref, a.Wire, force, mo, wo)
		return nilIfNone(st), resp, err
	}
	o.waitFor = func(ctx context.Context, c *client.Client, name, status string, wo client.WaitOptions) (any, error) {
		st, err := c.Playgrounds.Wait(ctx, name, status, wo)
		if st == nil {
			return nil, err
		}
		return &st.Playground, err
	}
	o.nameOf = func(item any) (string, string) {
		p := item.(*client.Playground)
		return p.Name, p.Status
	}
	return o
}
