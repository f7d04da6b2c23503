package console

import (
	"bytes"
	"net/url"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/resource"
)

// secretLike is a description with a write-only field, as a secret's
// value is.
func secretLike() *resource.Resource {
	create := []resource.Verb{resource.VerbCreate}
	return &resource.Resource{
		Name: "secrets", Singular: "secret", Verbs: []resource.Verb{resource.VerbList, resource.VerbCreate},
		Fields: []resource.Field{
			{Wire: "key", Arg: "key", Kind: resource.String, On: create, Required: true, Help: "The name"},
			{Wire: "value", Arg: "value", Kind: resource.String, On: create, Required: true, WriteOnly: true, Help: "The value"},
			{Wire: "description", Arg: "description", Kind: resource.String, On: create},
		},
		Columns: []resource.Column{{Header: "KEY", Key: "key"}, {Header: "VALUE", Key: "value"}, {Header: "DESCRIPTION", Key: "description"}},
	}
}

// A refused form is shown again with what the user typed, except the
// write-only value, which is never rendered back, and no column shows it.
func TestResourceFormNeverRendersWriteOnly(t *testing.T) {
	const secret = "s3cret-value-never-shown"
	res := secretLike()
	given := url.Values{"key": {"DB_URL"}, "value": {secret}, "description": {"db"}}
	rows, err := resourceRows([]map[string]any{{"id": 7, "key": "DB_URL", "value": secret, "description": "db"}}, visibleColumns(res))
	if err != nil {
		t.Fatal(err)
	}
	v := resourceView{Name: res.Name, Singular: res.Singular, Title: "Secrets", Rows: rows,
		Form: &resourceForm{Key: "k", CSRF: "c", Fields: formFields(res, given)}}
	for _, c := range visibleColumns(res) {
		v.Headers = append(v.Headers, c.Header)
	}
	var buf bytes.Buffer
	if err := templates().ExecuteTemplate(&buf, "resources.html", page{Title: "Secrets", Body: v}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if strings.Contains(html, secret) {
		t.Fatalf("the page shows the write-only value:\n%s", html)
	}
	for _, want := range []string{`id="secret_7"`, `value="DB_URL"`, `type="password" id="field-value" name="value"`, `<th>KEY</th>`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<th>VALUE</th>") {
		t.Error("a column shows the write-only field")
	}
}

// The form's body is the description's: a secret is sent exactly as
// typed, other text trimmed, and a missing required field is refused
// before anything is sent, naming it.
func TestResourceFormBody(t *testing.T) {
	res := secretLike()
	body, err := formBody(res, url.Values{"key": {" DB_URL "}, "value": {" two words \n"}})
	if err != nil {
		t.Fatal(err)
	}
	if body["key"] != "DB_URL" || body["value"] != " two words \n" {
		t.Errorf("body %v", body)
	}
	_, err = formBody(res, url.Values{"key": {"DB_URL"}})
	if ev := errorOf(err); ev == nil || ev.Code != "INVALID_ARGUMENT" || !strings.Contains(ev.Line(), "value") {
		t.Errorf("a form without the value: %v", err)
	}
}
