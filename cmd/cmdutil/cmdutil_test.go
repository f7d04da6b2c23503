package cmdutil

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

func TestIdempotencyKeyFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		ok   bool
		key  string
	}{
		{nil, true, ""},
		{[]string{"--idempotency-key", "ci-42-restart"}, true, "ci-42-restart"},
		{[]string{"--idempotency-key", ""}, false, ""},
		{[]string{"--idempotency-key", "has space"}, false, ""},
		{[]string{"--idempotency-key", strings.Repeat("k", 256)}, false, ""},
		{[]string{"--idempotency-key", "caf\u00e9"}, false, ""},
	} {
		var m MutationFlags
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
		AddMutationFlags(cmd, &m)
		cmd.SetArgs(c.args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		mo, err := m.Options()
		if (err == nil) != c.ok || (c.ok && mo.IdempotencyKey != c.key) {
			t.Errorf("%q: %+v, %v", c.args, mo, err)
		}
		if err != nil && output.ExitCode(err) != output.ExitUsage {
			t.Errorf("%q: a bad key must be a usage error, got exit %d", c.args, output.ExitCode(err))
		}
	}
}

func TestReadPayloadFromStdin(t *testing.T) {
	ios, in, _, _ := iostreams.Test()
	marquee := PayloadSchema{Wrapper: "marquee"}
	in.WriteString(`{"marquee": {"name": "m", "port": 2222}}`)
	body, err := ReadPayloadFrom(ios, "-", marquee)
	if err != nil || body["name"] != "m" || body["port"] == nil {
		t.Fatalf("%#v %v", body, err)
	}
	in.WriteString(`[1, 2]`)
	if _, err := ReadPayloadFrom(ios, "-", marquee); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("a non-object payload: %v", err)
	}
	if _, err := ReadPayloadFrom(ios, "/nonexistent/payload.json", marquee); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("a missing file: %v", err)
	}
}

func TestRelative(t *testing.T) {
	base := time.Date(2025, 1, 2, 12, 0, 0, 0, time.UTC)
	old := Now
	Now = func() time.Time { return base }
	defer func() { Now = old }()
	for d, want := range map[time.Duration]string{
		30 * time.Second: "now", 5 * time.Minute: "in 5m", -3 * time.Hour: "3h ago", 72 * time.Hour: "in 3d",
	} {
		if got := Relative(base.Add(d)); got != want {
			t.Errorf("%s: %q, want %q", d, got, want)
		}
	}
}

// A List cell of a table holds as many items as fit in its width, then
// how many more; the first item is always whole.
func TestShortList(t *testing.T) {
	for _, c := range []struct {
		items []any
		want  string
	}{
		{nil, ""},
		{[]any{"*"}, "*"},
		{[]any{"a:read", "b:read"}, "a:read, b:read"},
		{[]any{"secrets:read", "playgrounds:read"}, "secrets:read +1"},
		{[]any{"a:read", "b:read", "c:read", "d:read", "e:read"}, "a:read, b:read +3"},
		{[]any{"import_templates:write", "x:y"}, "import_templates:write +1"},
	} {
		if got := shortList(c.items, listCellWidth); got != c.want {
			t.Errorf("%v: %q, want %q", c.items, got, c.want)
		}
	}
	ios, _, out, _ := iostreams.Test()
	scopes := []any{"secrets:read", "b:read", "playgrounds:write"}
	if err := PrintTable(ios, resource.APIKeys(), []map[string]any{{"id": 1, "label": "k", "scopes": scopes}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "secrets:read +2") || strings.Contains(out.String(), "playgrounds:write") {
		t.Errorf("table:\n%q", out.String())
	}
}

var testSchema = PayloadSchema{
	Wrapper: "playground",
	Fields:  []string{"name", "playspec_id", "marquee_id", "env_overrides"},
	Aliases: map[string]string{"playspec": "playspec_id", "marquee": "marquee_id"},
}

// Payload errors name the file, the line and the column, and say what was
// expected, in the user's words rather than the decoder's.
func TestReadPayloadErrorsInTheUsersWords(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, content string
		want          []string
	}{
		{"typo", "{\n  \"name\": \"x\",\n  \"playspec\": nope\n}", []string{"payload.json: line 3, column 16: unexpected 'o', not valid JSON", "expected a JSON object of playground fields (name, playspec_id, marquee_id, env_overrides)"}},
		{"array", `[{"name": "x"}]`, []string{"payload.json is an array; expected a JSON object of playground fields"}},
		{"null", `null`, []string{"is null"}},
		{"truncated", "{\"name\": \"x\",\n", []string{"line 2, column 1: the JSON ends too early"}},
		{"empty", "", []string{"payload.json is empty"}},
		{"trailing", "{\"name\": \"x\"}\n{}", []string{"line 2, column 1: more data after the JSON object"}},
		{"wrapper and fields", `{"playground": {"name": "x"}, "playspec_id": "web"}`, []string{`both a "playground" object and top-level field "playspec_id"`}},
		{"wrapper not an object", `{"playground": ["x"]}`, []string{`"playground" is an array`}},
		{"alias and field", `{"playspec": "web", "playspec_id": "web"}`, []string{`both "playspec" and "playspec_id"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := dir + "/payload.json"
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			ios, _, _, _ := iostreams.Test()
			_, err := ReadPayloadFrom(ios, path, testSchema)
			if err == nil || output.ExitCode(err) != output.ExitUsage {
				t.Fatalf("want a usage error, got %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q not in %q", w, err)
				}
			}
			for _, bad := range []string{"Go value", "interface", "literal", "unmarshal", "open "} {
				if strings.Contains(err.Error(), bad) {
					t.Errorf("Go internals (%q) in %q", bad, err)
				}
			}
		})
	}
}

// The CLI's own names are accepted; unknown fields are sent with a warning
// that names them and the fields this CLI knows.
func TestReadPayloadAliasesAndUnknownFields(t *testing.T) {
	ios, in, _, errOut := iostreams.Test()
	in.WriteString(`{"playground": {"name": "x", "playspec": "web", "marquee": "7", "ttl_hours": 4, "color": "red"}}`)
	body, err := ReadPayloadFrom(ios, "-", testSchema)
	if err != nil {
		t.Fatal(err)
	}
	if body["playspec_id"] != "web" || body["marquee_id"] != int64(7) || body["ttl_hours"] == nil || body["playspec"] != nil {
		t.Errorf("body: %#v", body)
	}
	want := `Warning: payload stdin: fields "color", "ttl_hours" are not known to this version of fibe (it knows name, playspec_id, marquee_id, env_overrides); sent as given.` + "\n"
	if errOut.String() != want {
		t.Errorf("warning:\n%q\nwant\n%q", errOut, want)
	}
}
