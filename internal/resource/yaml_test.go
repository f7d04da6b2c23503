package resource

import (
	"strings"
	"testing"
)

func TestCheckYAML(t *testing.T) {
	for _, ok := range []string{"", "services:\n  web:\n    image: nginx\n", "a: [1, 2]\n"} {
		if err := CheckYAML(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for src, want := range map[string]string{
		"a: b: c":                    "line 1, column 5: mapping values are not allowed",
		"services:\n  web: [\n":      "line 3, column 1",
		"a: 1\n\tb: 2\n":             "line 2, column 1",
		"services:\n  - a\n  b: c\n": "line 3",
	} {
		err := CheckYAML(src)
		if err == nil || !strings.HasPrefix(err.Error(), "is not valid YAML: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// A Check runs on the value wherever it came from: a flag's file, a
// payload, an SDK parameter.
func TestBodyRunsTheFieldsCheck(t *testing.T) {
	r := Playspecs()
	_, err := r.Body(VerbCreate, map[string]any{"base_compose_yaml": "a: b: c"}, Values{"name": "p"})
	if ie, ok := err.(*InputError); !ok || ie.Arg != "compose" || !strings.Contains(ie.Problem, "line 1, column 5") {
		t.Fatalf("payload: %v", err)
	}
	_, err = r.Body(VerbUpdate, nil, Values{"compose": []byte("x: [")})
	if ie, ok := err.(*InputError); !ok || ie.Arg != "compose" {
		t.Fatalf("content read from stdin: %v", err)
	}
	body, err := r.Body(VerbCreate, nil, Values{"name": "p", "compose": []byte("services:\n  web:\n    image: a:1\n")})
	if err != nil || body["base_compose_yaml"] != "services:\n  web:\n    image: a:1\n" {
		t.Fatalf("body %v (%v)", body, err)
	}
}
