package resource

import (
	"context"
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// PropProviders are the git hosts a prop may live on.
var PropProviders = []string{"github", "gitea"}

func props() *Resource {
	both := []Verb{VerbCreate, VerbUpdate}
	return &Resource{
		Name: "props", Singular: "prop", Aliases: []string{"prop"},
		Short:   "Manage props, the git repositories linked to Fibe",
		Path:    "/api/props",
		Wrapper: "prop",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "repository_url", Arg: "repository-url", Help: "URL of the repository (https://github.com/owner/repo); Fibe must be able to push to it",
				On: both, Required: true, Example: "https://github.com/local-dev/wire"},
			{Wire: "name", Arg: "name", Help: "Name of the prop (default: from the repository's name)", On: both},
			{Wire: "provider", Arg: "provider", Help: "Git host of the repository (default: from the URL)", On: both, Enum: PropProviders, Example: "github"},
			{Wire: "default_branch", Arg: "default-branch", Help: "Branch used when none is named (default: the repository's)", On: both},
			{Wire: "private", Arg: "private", Kind: Bool, Help: "Whether the repository is private", On: both},
		},
		Statuses: []string{"active", "syncing", "error"},
		SortKeys: []string{"created_at", "name"},
		Filters: []Filter{
			{Arg: "provider", Help: "Only props on this git host", Query: "provider", Values: PropProviders},
			{Arg: "private", Help: "Only private (true) or public (false) props", Query: "private", Values: []string{"true", "false"}},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "PROVIDER", Key: "provider"},
			{Header: "STATUS", Key: "status", Kind: Status},
			{Header: "BRANCH", Key: "default_branch"},
			{Header: "PRIVATE", Key: "private", Kind: YesNo},
			{Header: "REPOSITORY", Key: "repository_url"},
			{Header: "SYNCED", Key: "last_synced_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Repository", Key: "repository_url"},
			{Header: "Mirror of", Key: "original_repository_url"},
			{Header: "Provider", Key: "provider"},
			{Header: "Private", Key: "private", Kind: YesNo},
			{Header: "Default branch", Key: "default_branch"},
			{Header: "Status", Key: "status", Kind: Status},
			{Header: "Credentials", Key: "has_credentials", Kind: YesNo},
			{Header: "Last synced", Key: "last_synced_at", Kind: Time},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Actions: []Action{
			{Name: "sync", Wire: "sync", Help: "Fetch a prop's repository again (branches, env files)", Progress: "Syncing",
				Path: "/syncs", Result: reflect.TypeFor[client.SyncResult]()},
		},
		Item: reflect.TypeFor[client.Prop](),
		ops:  propOps(),
	}
}

// propOps are the generic verbs and the sync on the client's props service.
func propOps() ops {
	o := writeOps[client.Prop](func(c *client.Client) *client.Collection[client.Prop] { return c.Props.Collection })
	o.action = func(ctx context.Context, c *client.Client, ref string, _ Action, _ bool, mo client.MutationOptions, _ client.WaitOptions) (any, *client.Response, error) {
		res, resp, err := c.Props.Sync(ctx, ref, mo)
		return nilIfNone(res), resp, err
	}
	return o
}
