package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/resource"
)

// Resource pages: a list and a create form for resources other than
// playgrounds, built from their descriptions (internal/resource): the
// table is the description's columns, the form its create fields. A
// write-only field (a secret's value) is a password field that is never
// filled back, and a column that would show one is left out.

// resourcePages are the resources with a page, in the header's order;
// one not described (yet) has none.
var resourcePages = []string{"playspecs", "secrets"}

// pagedResource returns the description of a resource with a page.
func pagedResource(name string) (*resource.Resource, bool) {
	for _, n := range resourcePages {
		if n == name {
			return resource.Lookup(name)
		}
	}
	return nil, false
}

// navLink is one link of the header.
type navLink struct{ Href, Label string }

// navLinks are the header's links: playgrounds, then each resource page.
func navLinks() []navLink {
	out := []navLink{{Href: "/", Label: "Playgrounds"}}
	for _, n := range resourcePages {
		if r, ok := resource.Lookup(n); ok {
			out = append(out, navLink{Href: "/" + r.Name, Label: title(r.Name)})
		}
	}
	return out
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// resourceView is what resources.html shows.
type resourceView struct {
	Name, Singular, Title string
	Headers               []string
	Rows                  []resourceRow
	Err                   *errorView
	Form                  *resourceForm // nil: the resource cannot be created here
	Created               string        // the name of the item just created
}

type resourceRow struct {
	ID    string
	Cells []string
}

type resourceForm struct {
	Key, CSRF string
	Fields    []formField
}

// formField is one input of the create form.
type formField struct {
	Name, Label, Help, Type, Value string
	Options                        []string // a select's values
	Required, Multiline            bool
}

// visibleColumns are the description's columns minus any that would show
// a write-only field.
func visibleColumns(r *resource.Resource) []resource.Column {
	secret := map[string]bool{}
	for _, f := range r.Fields {
		if f.WriteOnly {
			secret[f.Wire] = true
		}
	}
	var out []resource.Column
	for _, c := range r.Columns {
		if !secret[c.Key] {
			out = append(out, c)
		}
	}
	return out
}

func (s *Server) resourcePage(w http.ResponseWriter, r *http.Request) {
	res, ok := pagedResource(r.PathValue("resource"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	s.renderResource(w, r, http.StatusOK, res, nil, nil, r.URL.Query().Get("created"))
}

// renderResource renders the page of res: its list as of now, and its
// form, filled with given (what the user typed, write-only fields left
// out) after a refused create.
func (s *Server) renderResource(w http.ResponseWriter, r *http.Request, status int, res *resource.Resource, given url.Values, formErr error, created string) {
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	defer cancel()
	v := resourceView{Name: res.Name, Singular: res.Singular, Title: title(res.Name), Created: created}
	cols := visibleColumns(res)
	for _, c := range cols {
		v.Headers = append(v.Headers, c.Header)
	}
	items, err := res.ListAll(ctx, s.api, client.ListOptions{})
	if err == nil {
		v.Rows, err = resourceRows(items, cols)
	}
	if formErr != nil {
		err = formErr
	}
	v.Err = errorOf(err)
	if res.Serves(resource.VerbCreate) {
		v.Form = &resourceForm{Key: reliability.NewIdempotencyKey(), Fields: formFields(res, given)}
		if sess := sessionFrom(r.Context()); sess != nil {
			v.Form.CSRF = sess.csrf
		}
	}
	s.render(w, r, status, "resources.html", v.Title, v)
}

// resourceRows are the items (a slice of the client's type) as the
// columns show them; the row's id is the item's id.
func resourceRows(items any, cols []resource.Column) ([]resourceRow, error) {
	data, err := json.Marshal(items)
	if err != nil {
		return nil, err
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		return nil, err
	}
	rows := make([]resourceRow, 0, len(objs))
	for _, o := range objs {
		row := resourceRow{ID: cellText(o["id"])}
		for _, c := range cols {
			row.Cells = append(row.Cells, columnText(c, o))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func columnText(c resource.Column, o map[string]any) string {
	v := o[c.Key]
	switch c.Kind {
	case resource.Relative, resource.Time:
		s, _ := v.(string)
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC().Format("2006-01-02 15:04 UTC")
		}
		return ""
	case resource.YesNo:
		switch v {
		case true:
			return "yes"
		case false:
			return "no"
		}
		return ""
	case resource.NameOrID:
		if s := cellText(v); s != "" {
			return s
		}
		return cellText(o[c.Fallback])
	}
	return oneLine(cellText(v))
}

// cellText is a JSON value as text (html/template escapes it).
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	data, _ := json.Marshal(v)
	return string(data)
}

// formFields are the create fields as inputs; given refills all but the
// write-only ones.
func formFields(res *resource.Resource, given url.Values) []formField {
	var out []formField
	for _, f := range res.FieldsOf(resource.VerbCreate) {
		ff := formField{Name: f.Arg, Label: f.Arg, Help: f.Help, Type: "text", Required: f.Required}
		switch {
		case f.WriteOnly:
			ff.Type = "password"
			ff.Multiline = f.Kind == resource.File
		case len(f.Enum) > 0:
			ff.Type, ff.Options = "select", f.Enum
		case f.Kind == resource.Int:
			ff.Type = "number"
		case f.Kind == resource.Bool:
			ff.Type = "checkbox"
		case f.Kind == resource.Env, f.Kind == resource.File:
			ff.Multiline = true
		}
		if !f.WriteOnly && given != nil {
			ff.Value = given.Get(f.Arg)
		}
		out = append(out, ff)
	}
	return out
}

// createResource creates an item from the page's form. The form's key is
// the create's Idempotency-Key: submitting the same form twice is one
// create. A refused form is rendered again (422) with the error and what
// the user typed, never a write-only value.
func (s *Server) createResource(w http.ResponseWriter, r *http.Request) {
	res, ok := pagedResource(r.PathValue("resource"))
	if !ok || !res.Serves(resource.VerbCreate) {
		http.NotFound(w, r)
		return
	}
	key := r.PostFormValue("idempotency_key")
	if err := reliability.ValidateIdempotencyKey(key); err != nil {
		http.Error(w, "422 unprocessable: INVALID_ARGUMENT: idempotency_key: "+err.Error(), http.StatusUnprocessableEntity)
		return
	}
	body, err := formBody(res, r.PostForm)
	if err == nil {
		ctx, cancel := context.WithTimeout(r.Context(), 60*time.Second)
		defer cancel()
		var item any
		item, _, err = res.Create(ctx, s.api, body, client.MutationOptions{IdempotencyKey: key}, client.WaitOptions{})
		if err == nil {
			http.Redirect(w, r, "/"+res.Name+"?created="+url.QueryEscape(itemName(item)), http.StatusSeeOther)
			return
		}
	}
	s.renderResource(w, r, http.StatusUnprocessableEntity, res, r.PostForm, err, "")
}

// formBody builds the create's body from the form with the description's
// one builder. A file field's text is its content (the browser sends it;
// no path on this machine is ever read for a form).
func formBody(res *resource.Resource, form url.Values) (map[string]any, error) {
	base := map[string]any{}
	values := resource.Values{}
	for _, f := range res.FieldsOf(resource.VerbCreate) {
		raw, given := form[f.Arg]
		text := ""
		if given && len(raw) > 0 {
			text = raw[0]
		}
		if f.Kind != resource.Bool && strings.TrimSpace(text) == "" {
			continue
		}
		switch f.Kind {
		case resource.File:
			base[f.Wire] = text
		case resource.Int:
			n, err := strconv.Atoi(strings.TrimSpace(text))
			if err != nil {
				return nil, invalidArgument(f.Arg, f.Arg+" must be a whole number")
			}
			values[f.Arg] = n
		case resource.Bool:
			if given {
				values[f.Arg] = text == "on" || text == "true"
			}
		case resource.Env:
			env, err := parseEnv(text)
			if err != nil {
				return nil, err
			}
			values[f.Arg] = env
		case resource.String:
			if f.WriteOnly {
				values[f.Arg] = text // a secret is sent exactly as typed
			} else {
				values[f.Arg] = strings.TrimSpace(text)
			}
		default:
			values[f.Arg] = strings.TrimSpace(text)
		}
	}
	body, err := res.Body(resource.VerbCreate, base, values)
	if ie, ok := err.(*resource.InputError); ok {
		return nil, invalidArgument(ie.Arg, fmt.Sprintf("%s %s", ie.Arg, ie.Problem))
	}
	return body, err
}

// itemName is an item's name, key or id, for the page's notice.
func itemName(item any) string {
	data, err := json.Marshal(item)
	if err != nil {
		return ""
	}
	var o map[string]any
	if json.Unmarshal(data, &o) != nil {
		return ""
	}
	for _, k := range []string{"name", "key", "label", "id"} {
		if s := cellText(o[k]); s != "" {
			return s
		}
	}
	return ""
}
