package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

// webhooks are the endpoints that receive the platform's signed event
// deliveries (docs/api.md, Webhooks). An endpoint is addressed by its id.
// The secret is write-only: the create answer shows it once (the server
// makes one when none is given).
func webhooks() *Resource {
	return &Resource{
		Name: "webhooks", Singular: "webhook", Aliases: []string{"webhook", "wh"},
		Short:   "Manage webhook endpoints, the receivers of signed event deliveries",
		Path:    "/api/webhook_endpoints",
		Wrapper: "webhook_endpoint",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "url", Arg: "url", Help: "URL the deliveries are posted to", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "events", Arg: "event", Kind: Strings, Help: "Event to subscribe to (repeat the flag for more; see webhooks event-types)",
				On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "description", Arg: "description", Help: "What the endpoint is for", On: []Verb{VerbCreate, VerbUpdate}},
			{Wire: "enabled", Arg: "enabled", Kind: Bool, Help: "Whether events are sent to it (default true)", On: []Verb{VerbUpdate}},
			{Wire: "secret", Arg: "secret-file", Kind: File, WriteOnly: true,
				Help: "File holding the signing secret, at least 16 characters (default: one is made and shown once)", On: []Verb{VerbCreate, VerbUpdate}},
		},
		SortKeys: []string{"created_at", "updated_at", "url", "id"},
		// An endpoint has no name: --url keeps those whose URL contains a text.
		ListLacks: FilterName,
		Filters: []Filter{
			{Arg: "url", Help: "Only endpoints whose URL contains this", Query: "url"},
			{Arg: "enabled", Help: "Only enabled (true) or disabled (false) endpoints", Query: "enabled"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "URL", Key: "url"},
			{Header: "EVENTS", Key: "events"},
			{Header: "ENABLED", Key: "enabled", Kind: YesNo},
			{Header: "FAILURES", Key: "failure_count"},
			{Header: "LAST TRIGGERED", Key: "last_triggered_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "URL", Key: "url"},
			{Header: "Events", Key: "events"},
			{Header: "Description", Key: "description"},
			{Header: "Enabled", Key: "enabled", Kind: YesNo},
			{Header: "Failures", Key: "failure_count"},
			{Header: "Last triggered", Key: "last_triggered_at", Kind: Time},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Item: reflect.TypeFor[client.WebhookEndpoint](),
		// The service itself, not its Collection: its Create keeps the
		// secret of a replayed answer.
		ops: writeOps[client.WebhookEndpoint](func(c *client.Client) *client.WebhooksService { return c.Webhooks }),
	}
}

// auditLogs are the account's record of mutations (docs/api.md, Audit
// logs), read-only.
func auditLogs() *Resource {
	return &Resource{
		Name: "audit-logs", Singular: "audit-log", Aliases: []string{"audit-log", "audit"},
		Short:    "Read the audit log: every change made to the account, by whom and through which channel",
		Path:     "/api/audit_logs",
		Verbs:    []Verb{VerbList},
		SortKeys: []string{"created_at", "id"},
		// An entry has no name: q searches its action and resource type.
		ListLacks: FilterName,
		Filters: []Filter{
			{Arg: "resource-type", Help: "Only entries about this kind of resource (Playground, Marquee, Secret, ...)", Query: "resource_type"},
			{Arg: "channel", Help: "Only entries made through this channel (api or ui)", Query: "channel"},
			{Arg: "action-prefix", Help: "Only actions that start with this (secret, playground.status)", Query: "action_prefix"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "WHEN", Key: "created_at", Kind: Relative},
			{Header: "ACTION", Key: "action"},
			{Header: "RESOURCE", Key: "resource_type"},
			{Header: "RESOURCE ID", Key: "resource_id"},
			{Header: "CHANNEL", Key: "channel"},
			{Header: "ACTOR", Key: "actor_type"},
		},
		Item: reflect.TypeFor[client.AuditLog](),
		ops: readOps[client.AuditLog](func(c *client.Client) *client.Collection[client.AuditLog] {
			return c.AuditLogs.Collection
		}),
	}
}
