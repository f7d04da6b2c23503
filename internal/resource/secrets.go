package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// SecretValueMax is the longest value a secret may hold, in characters
// (docs/api.md, "Secrets"): the platform refuses longer ones, and every
// door refuses them before anything is sent.
const SecretValueMax = 65536

// SecretKeyPattern is what a secret's key may be made of.
const SecretKeyPattern = `[A-Za-z0-9_-]{1,255}`

// secrets are values kept for the player (credentials, tokens), named by
// a key. A value is write-only: it is shown only when asked for.
func secrets() *Resource {
	return &Resource{
		Name: "secrets", Singular: "secret", Aliases: []string{"secret"},
		Short:   "Manage secrets, values kept for your playgrounds and agents",
		Path:    "/api/secrets",
		Wrapper: "secret",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "key", Arg: "key", Help: "Name of the secret (letters, digits, _ and -)", On: []Verb{VerbCreate}, Required: true,
				Pattern: SecretKeyPattern, PatternHelp: "1 to 255 letters, digits, _ or -"},
			{Wire: "value", Arg: "value", WriteOnly: true, MaxLen: SecretValueMax,
				Help: "The secret's value (sent once, never printed back)", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "description", Arg: "description", Help: "What the secret is for", On: []Verb{VerbCreate, VerbUpdate}},
		},
		SortKeys: []string{"created_at", "key"},
		Filters: []Filter{
			{Arg: "key", Help: "Only secrets whose key contains this text", Query: "key"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "KEY", Key: "key"},
			{Header: "DESCRIPTION", Key: "description"},
			{Header: "UPDATED", Key: "updated_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Key", Key: "key"},
			{Header: "Description", Key: "description"},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Item: reflect.TypeFor[client.Secret](),
		ops:  writeOps[client.Secret](func(c *client.Client) *client.Collection[client.Secret] { return c.Secrets.Collection }),
	}
}
