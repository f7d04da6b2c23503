package resource

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestIDOrName(t *testing.T) {
	for ref, want := range map[string]any{"42": int64(42), "web": "web", "0": "0", "-3": "-3", "4x": "4x"} {
		if got := IDOrName(ref); got != want {
			t.Errorf("IDOrName(%q) = %#v, want %#v", ref, got, want)
		}
	}
}

// One body builder: the door's names in, the wire's names out, checked.
func TestBody(t *testing.T) {
	pg := Playgrounds()
	body, err := pg.Body(VerbCreate, map[string]any{"env_overrides": map[string]any{"B": "2"}},
		Values{"name": "p", "playspec": "7", "marquee": "m", "env": []string{"A=1"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "p", "playspec_id": int64(7), "marquee_id": "m", "env_overrides": map[string]any{"A": "1", "B": "2"}}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %#v, want %#v", body, want)
	}
	// An update does not take the playspec, and needs nothing.
	if body, err := pg.Body(VerbUpdate, nil, Values{"playspec": "7", "env": map[string]string{"X": "y"}}); err != nil ||
		!reflect.DeepEqual(body, map[string]any{"env_overrides": map[string]any{"X": "y"}}) {
		t.Errorf("update body %v (%v)", body, err)
	}
	for _, c := range []struct {
		r      *Resource
		values Values
		arg    string
	}{
		{pg, Values{"playspec": "web"}, "name"},
		{pg, Values{"name": "p", "playspec": "web", "env": []string{"=x"}}, "env"},
		{Marquees(), Values{"name": "m", "host": "h", "port": 65536}, "port"},
		{Marquees(), Values{"name": "m", "host": "h", "ssh-key-file": "/nonexistent/key"}, "ssh-key-file"},
		{Marquees(), Values{"name": "m"}, "host"},
	} {
		_, err := c.r.Body(VerbCreate, nil, c.values)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("%v: %v, want an input error naming %s", c.values, err, c.arg)
		}
	}
}

// Every description is whole: the columns and cards name JSON keys of the
// item, fields and actions have help, and names are unique.
func TestDescriptionsAreWhole(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		for _, name := range append([]string{r.Name, r.Singular}, r.Aliases...) {
			if seen[name] && name != r.Singular {
				t.Errorf("%s: name %q used twice", r.Name, name)
			}
			seen[name] = true
		}
		keys := jsonKeys(r.Item)
		for _, c := range append(append([]Column(nil), r.Columns...), r.Card...) {
			if !keys[c.Key] || (c.Fallback != "" && !keys[c.Fallback]) {
				t.Errorf("%s: column %q shows %q, which %s has not", r.Name, c.Header, c.Key, r.Item)
			}
		}
		for _, f := range r.Fields {
			if f.Help == "" || f.Arg == "" || f.Wire == "" || len(f.On) == 0 {
				t.Errorf("%s: field %+v is not whole", r.Name, f)
			}
		}
		for _, a := range r.Actions {
			if a.Help == "" || a.Name == "" || a.Wire == "" || a.Progress == "" || a.Result == nil {
				t.Errorf("%s: action %+v is not whole", r.Name, a)
			}
		}
		if r.ops.list == nil || r.ops.get == nil {
			t.Errorf("%s: no list or get", r.Name)
		}
		if r.Serves(VerbCreate) != (r.ops.create != nil) || r.Serves(VerbDelete) != (r.ops.delete != nil) ||
			(len(r.Actions) > 0) != (r.ops.action != nil) || (r.CreateWaitsFor != "") != (r.ops.waitFor != nil) {
			t.Errorf("%s: verbs and client calls disagree", r.Name)
		}
	}
}

func jsonKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := cut(f.Tag.Get("json"))
		if f.Anonymous && name == "" {
			for k := range jsonKeys(f.Type) {
				keys[k] = true
			}
			continue
		}
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
}

func cut(tag string) (string, string, bool) {
	for i := range len(tag) {
		if tag[i] == ',' {
			return tag[:i], tag[i+1:], true
		}
	}
	return tag, "", false
}

// A String's length and pattern, a Strings' items: checked before anything
// is sent, and a write-only value is never quoted back.
func TestFieldRules(t *testing.T) {
	r := &Resource{Name: "things", Fields: []Field{
		{Wire: "key", Arg: "key", On: []Verb{VerbCreate}, Pattern: `[A-Z_]+`, PatternHelp: "capitals and _"},
		{Wire: "value", Arg: "value", On: []Verb{VerbCreate}, MaxLen: 4, Pattern: `[a-z]*`, PatternHelp: "lowercase", WriteOnly: true},
		{Wire: "tags", Arg: "tag", Kind: Strings, On: []Verb{VerbCreate}, Enum: []string{"a", "b"}},
	}}
	body, err := r.Body(VerbCreate, nil, Values{"key": "A_B", "value": "abcd", "tag": []string{"a", "b"}})
	if err != nil || !reflect.DeepEqual(body, map[string]any{"key": "A_B", "value": "abcd", "tags": []string{"a", "b"}}) {
		t.Fatalf("body %#v (%v)", body, err)
	}
	for _, c := range []struct {
		values Values
		arg    string
	}{
		{Values{"key": "a.b"}, "key"},
		{Values{"value": "abcdé"}, "value"},
		{Values{"value": "S3CRET"}, "value"},
		{Values{"tag": []string{"a", "c"}}, "tag"},
		{Values{"tag": "a"}, "tag"},
	} {
		_, err := r.Body(VerbCreate, nil, c.values)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("%v: %v, want an input error naming %s", c.values, err, c.arg)
			continue
		}
		if strings.Contains(ie.Error(), "S3CRET") || strings.Contains(ie.Error(), "abcdé") {
			t.Errorf("%v: a write-only value was quoted: %v", c.values, ie)
		}
	}
}
