package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// apiKeys are the player's API keys. A key's token is shown once, in the
// answer that created it; there is no get or update.
func apiKeys() *Resource {
	return &Resource{
		Name: "api_keys", Singular: "api_key", Aliases: []string{"api-keys", "api-key"},
		Short:   "Manage API keys and their scopes",
		Path:    "/api/api_keys",
		Wrapper: "api_key",
		Verbs:   []Verb{VerbList, VerbCreate, VerbDelete},
		Fields: []Field{
			{Wire: "label", Arg: "label", Help: "What the key is for", On: []Verb{VerbCreate}, Required: true},
			{Wire: "scopes", Arg: "scopes", Kind: Strings, Required: true, On: []Verb{VerbCreate},
				Pattern: `\*|[a-z_]+:[a-z]+`, PatternHelp: "<resource>:<access> (e.g. secrets:read) or *", Example: "secrets:read",
				Help: "A scope the key holds, e.g. secrets:read (repeatable)"},
			{Wire: "expires_at", Arg: "expires-at", On: []Verb{VerbCreate},
				Pattern: `\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?`, PatternHelp: "an ISO 8601 date or time", Example: "2031-01-31",
				Help: "When the key stops working (ISO 8601; default never)"},
		},
		SortKeys: []string{"created_at", "label"},
		Filters: []Filter{
			{Arg: "label", Help: "Only keys whose label contains this text", Query: "label"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "LABEL", Key: "label"},
			{Header: "TOKEN", Key: "masked_token"},
			{Header: "SCOPES", Key: "scopes", Kind: List},
			{Header: "EXPIRES", Key: "expires_at", Kind: Relative},
			{Header: "CREATED", Key: "created_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Label", Key: "label"},
			{Header: "Token", Key: "masked_token"},
			{Header: "Scopes", Key: "scopes"},
			{Header: "Expires", Key: "expires_at", Kind: Time},
			{Header: "Created", Key: "created_at", Kind: Time},
		},
		Item: reflect.TypeFor[client.APIKey](),
		ops:  writeOps[client.APIKey](func(c *client.Client) *client.Collection[client.APIKey] { return c.APIKeys.Collection }),
	}
}
