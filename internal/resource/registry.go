package resource

import "sync"

// All returns every resource described, in a stable order. They are built
// on the first call.
func All() []*Resource { return all() }

var all = sync.OnceValue(func() []*Resource {
	return []*Resource{playgrounds(), marquees(), playspecs(),
		templates(),
		secrets(),
		apiKeys(),
		agents(),
		webhooks(), auditLogs(),
		props(),
	}
})

// Lookup returns the resource called name (its Name, Singular or an
// alias).
func Lookup(name string) (*Resource, bool) {
	for _, r := range All() {
		if r.Name == name || r.Singular == name {
			return r, true
		}
		for _, a := range r.Aliases {
			if a == name {
				return r, true
			}
		}
	}
	return nil, false
}

// MustLookup is Lookup for a name the program itself wrote.
func MustLookup(name string) *Resource {
	r, ok := Lookup(name)
	if !ok {
		panic("resource: no resource " + name)
	}
	return r
}

// Playgrounds is the description of playgrounds. It, Marquees and
// Playspecs are the descriptions the doors name directly.
func Playgrounds() *Resource { return MustLookup("playgrounds") }

// Marquees is the description of marquees.
func Marquees() *Resource { return MustLookup("marquees") }

// Playspecs is the description of playspecs.
func Playspecs() *Resource { return MustLookup("playspecs") }

// Templates is the description of import templates.
func Templates() *Resource { return MustLookup("templates") }

// Secrets is the description of secrets.
func Secrets() *Resource { return MustLookup("secrets") }

// APIKeys is the description of API keys.
func APIKeys() *Resource { return MustLookup("api_keys") }

// Agents is the description of agents.
func Agents() *Resource { return MustLookup("agents") }

// Webhooks is the description of webhook endpoints.
func Webhooks() *Resource { return MustLookup("webhooks") }

// AuditLogs is the description of the audit log.
func AuditLogs() *Resource { return MustLookup("audit-logs") }

// Props is the description of props.
func Props() *Resource { return MustLookup("props") }
