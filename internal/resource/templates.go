package resource

import (
	"reflect"

	"github.com/fibegg/fibe/internal/client"
)

func templates() *Resource {
	return &Resource{
		Name: "templates", Singular: "template", Aliases: []string{"tpl", "template"},
		Short:   "Manage import templates, reusable compose files with versions",
		Path:    "/api/import_templates",
		Wrapper: "import_template",
		Verbs:   []Verb{VerbList, VerbGet, VerbCreate, VerbUpdate, VerbDelete},
		Fields: []Field{
			{Wire: "name", Arg: "name", Help: "Name of the template", On: []Verb{VerbCreate, VerbUpdate}, Required: true},
			{Wire: "description", Arg: "description", Help: "What the template is for", On: []Verb{VerbCreate, VerbUpdate}},
			{Wire: "category_id", Arg: "category", Kind: Int, Min: 1, Max: 1<<31 - 1,
				Help: "Category id (fibe templates categories lists them; none or unknown: Uncategorized)", On: []Verb{VerbCreate, VerbUpdate}},
			// The body is not a field of the template read back: it becomes
			// the first version's (templates versions list shows it).
			{Wire: "template_body", Arg: "body", Kind: File, Required: true, WriteOnly: true,
				Help: "File holding the first version's body, a compose file (- for stdin)", On: []Verb{VerbCreate}},
		},
		SortKeys: []string{"updated_at", "name", "created_at"},
		Filters: []Filter{
			{Arg: "category", Query: "category_id", Help: "Only templates of this category (its id or slug)"},
			{Arg: "system", Query: "system", Values: trueFalse, Help: "Only system templates (true) or only the others (false)"},
		},
		Columns: []Column{
			{Header: "ID", Key: "id"},
			{Header: "NAME", Key: "name"},
			{Header: "CATEGORY", Key: "category"},
			{Header: "LATEST", Key: "latest_version_tag"},
			{Header: "SYSTEM", Key: "system", Kind: YesNo},
			{Header: "UPDATED", Key: "updated_at", Kind: Relative},
		},
		Card: []Column{
			{Header: "ID", Key: "id"},
			{Header: "Name", Key: "name"},
			{Header: "Description", Key: "description"},
			{Header: "Category", Key: "category"},
			{Header: "Author", Key: "author"},
			{Header: "System", Key: "system", Kind: YesNo},
			{Header: "Latest version", Key: "latest_version_tag"},
			{Header: "Image", Key: "image_url"},
			{Header: "Created", Key: "created_at", Kind: Time},
			{Header: "Updated", Key: "updated_at", Kind: Time},
		},
		Item: reflect.TypeFor[client.Template](),
		ops:  writeOps[client.Template](func(c *client.Client) *client.TemplatesService { return c.Templates }),
	}
}
