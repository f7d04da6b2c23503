package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/resource"
)

func toolNamed(t *testing.T, name string) *Tool {
	t.Helper()
	for _, tool := range Tools() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// Every resource's verbs and actions have their tools, and each tool's
// input schema says what the description says: the reference, the fields
// by their MCP names, what create requires, bounds and allowed values.
func TestGeneratedToolsFollowTheDescriptions(t *testing.T) {
	for _, r := range resource.All() {
		for _, v := range r.Verbs {
			tool := toolNamed(t, "fibe_"+argName(r.Name)+"_"+string(v))
			in := tool.Input
			if in.Type != "object" || tool.Output == nil || tool.Output.Type != "object" {
				t.Fatalf("%s: input %q, output %v: want object schemas", tool.Name, in.Type, tool.Output)
			}
			if _, err := in.Resolve(nil); err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			if in.AdditionalProperties == nil || in.AdditionalProperties.Not == nil {
				t.Errorf("%s: unknown arguments are not refused", tool.Name)
			}
			hasRef := v != resource.VerbList && v != resource.VerbCreate
			if got := slices.Contains(in.Required, r.Singular); got != hasRef {
				t.Errorf("%s: %s required = %v, want %v", tool.Name, r.Singular, got, hasRef)
			}
			for _, f := range r.FieldsOf(v) {
				p := in.Properties[argName(f.Arg)]
				if p == nil {
					t.Errorf("%s: no argument for field %s", tool.Name, f.Arg)
					continue
				}
				if want := f.Required && v == resource.VerbCreate; slices.Contains(in.Required, argName(f.Arg)) != want {
					t.Errorf("%s: %s required should be %v", tool.Name, argName(f.Arg), want)
				}
				if f.Kind == resource.String && f.Max != 0 && (p.MaxLength == nil || *p.MaxLength != f.Max) {
					t.Errorf("%s: %s has no length bound %d", tool.Name, argName(f.Arg), f.Max)
				}
				if f.Kind == resource.Int && f.Max != 0 && (p.Minimum == nil || p.Maximum == nil || *p.Minimum != float64(f.Min) || *p.Maximum != float64(f.Max)) {
					t.Errorf("%s: %s has no bounds %d..%d", tool.Name, argName(f.Arg), f.Min, f.Max)
				}
				if f.Kind == resource.Env && (p.Type != "object" || p.AdditionalProperties == nil || p.AdditionalProperties.Type != "string") {
					t.Errorf("%s: %s is not an object of strings", tool.Name, argName(f.Arg))
				}
			}
			if v == resource.VerbList {
				if len(r.Statuses) > 0 && len(in.Properties["status"].Enum) != len(r.Statuses) {
					t.Errorf("%s: status enum %v", tool.Name, in.Properties["status"].Enum)
				}
				if len(r.SortKeys) > 0 {
					enum := in.Properties["sort"].Enum
					if !slices.Contains(enum, any(r.SortKeys[0]+"_asc")) || !slices.Contains(enum, any(r.SortKeys[0]+"_desc")) {
						t.Errorf("%s: sort enum %v lacks both forms of %s", tool.Name, enum, r.SortKeys[0])
					}
				}
				for _, f := range r.Filters {
					if in.Properties[argName(f.Arg)] == nil {
						t.Errorf("%s: no filter %s", tool.Name, f.Arg)
					}
				}
			}
		}
		for _, a := range r.Actions {
			name := "fibe_" + argName(r.Name) + "_" + argName(a.Name)
			if !a.Destroys && len(r.Actions) > 2 {
				name = "fibe_" + r.Name + "_action"
				enum := toolNamed(t, name).Input.Properties["action"].Enum
				if !slices.Contains(enum, any(a.Wire)) || !slices.Contains(enum, any(a.Name)) {
					t.Errorf("%s: action enum %v lacks %s or %s", name, enum, a.Wire, a.Name)
				}
			}
			tool := toolNamed(t, name)
			if tool.Gated != a.Destroys || tool.ReadOnly != (a.Wire == "test_connection") {
				t.Errorf("%s: gated %v, read-only %v", name, tool.Gated, tool.ReadOnly)
			}
			if _, ok := tool.Input.Properties["force"]; ok != a.Force && !(name == "fibe_"+r.Name+"_action") {
				t.Errorf("%s: force argument %v, action takes it %v", name, ok, a.Force)
			}
		}
	}
	// The marquee's key file keeps its argument name.
	if p := toolNamed(t, "fibe_marquees_create").Input.Properties["ssh_key_file"]; p == nil || !strings.Contains(p.Description, "machine running fibe") {
		t.Fatalf("ssh_key_file: %+v", p)
	}
}

// --tools full is every tool; core is the documented set, the same names
// as before the tools were generated.
func TestCoreIsTheDocumentedSet(t *testing.T) {
	core, full := ToolSet(ToolsCore), ToolSet(ToolsFull)
	if len(full) != len(Tools()) || len(core) != len(coreTools) {
		t.Fatalf("full %d of %d tools, core %d of %d names", len(full), len(Tools()), len(core), len(coreTools))
	}
	for _, tool := range full {
		if strings.HasPrefix(tool.Name, "fibe_playspecs_") && coreTools[tool.Name] {
			t.Errorf("%s is in core", tool.Name)
		}
	}
}

// Bad input to a create is refused before anything is sent: what the
// schema can judge is a protocol error naming the argument, the rest
// INVALID_ARGUMENT with details.field the MCP argument's name.
func TestCreateBadInputSendsNothing(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"name": "m", "host": "h", "port": 70000}, "port"},
		{map[string]any{"name": "m", "host": "h", "port": 0}, "port"},
		{map[string]any{"name": "m"}, "host"},
	} {
		_, err := w.cs.CallTool(ctxT(t), &mcp.CallToolParams{Name: "fibe_marquees_create", Arguments: c.args})
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%v: %v, want a protocol error naming %s", c.args, err, c.field)
		}
	}
	missing := filepath.Join(t.TempDir(), "no-such-key")
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
	}{
		{"fibe_marquees_create", map[string]any{"name": "m", "host": ""}, "host"},
		{"fibe_marquees_create", map[string]any{"name": "m", "host": "h", "ssh_key_file": missing}, "ssh_key_file"},
		{"fibe_playgrounds_create", map[string]any{"name": "p", "playspec": ""}, "playspec"},
		{"fibe_playgrounds_create", map[string]any{"name": "  ", "playspec": "web"}, "name"},
		{"fibe_marquees_update", map[string]any{"marquee": "local"}, "name"},
		{"fibe_marquees_update", map[string]any{"marquee": "local", "ssh_key_file": missing}, "ssh_key_file"},
		{"fibe_playgrounds_action", map[string]any{"playground": "p", "action": "start", "force": true}, "force"},
	} {
		e := w.fail(c.tool, c.args)
		msg := fmt.Sprint(e["message"])
		if e["code"] != client.CodeInvalidArgument || e["details"].(map[string]any)["field"] != c.field || !strings.Contains(msg, c.field) {
			t.Errorf("%s %v: %v", c.tool, c.args, e)
		}
		if strings.Contains(msg, "ssh-key-file") {
			t.Errorf("%s: the message names the command line's flag, not the argument: %s", c.tool, msg)
		}
	}
	if n := len(w.reqs.all()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// Past the schema, the description's own checks (bounds, required) still
// hold: the tool refuses before it builds a client.
func TestDescriptionChecksBehindTheSchema(t *testing.T) {
	tool := toolNamed(t, "fibe_marquees_create")
	built := false
	cfg := &Config{Client: func(func(client.Event), bool) (*client.Client, error) {
		built = true
		return nil, errors.New("no client in this test")
	}}
	for args, field := range map[string]string{
		`{"name": "m", "host": "h", "port": 70000}`: "port",
		`{"name": "m"}`: "host",
	} {
		_, err := tool.run(context.Background(), &call{cfg: cfg, tool: tool}, json.RawMessage(args))
		var ae *argError
		if !errors.As(err, &ae) || ae.field != field {
			t.Errorf("%s: %v, want INVALID_ARGUMENT on %s", args, err, field)
		}
	}
	if built {
		t.Fatal("a client was built for bad input")
	}
}

// The action "restart" (its command's name) and "hard_restart" (its wire
// name) both run hard_restart: the command line and agents agree.
func TestRestartAndHardRestartRunTheSameAction(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("again-1", "web", "local")
	for _, name := range []string{"restart", "hard_restart"} {
		before := len(w.reqs.all())
		var st map[string]any
		w.ok("fibe_playgrounds_action", map[string]any{"playground": "again-1", "action": name}, &st)
		if st["status"] != "running" {
			t.Fatalf("%s: status %v", name, st["status"])
		}
		var sent []string
		for _, r := range w.reqs.all()[before:] {
			if r.Method == "POST" && r.Path == "/api/playgrounds/again-1/operations" {
				var body map[string]any
				if err := json.Unmarshal(r.Body, &body); err != nil {
					t.Fatal(err)
				}
				sent = append(sent, fmt.Sprint(body["action_type"]))
			}
		}
		if len(sent) != 1 || sent[0] != "hard_restart" {
			t.Fatalf("action %s sent %v, want one hard_restart", name, sent)
		}
	}
}

// A list's status, sort and filters reach the API as its query.
func TestListArgumentsBecomeTheQuery(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	w.createPG("q-1", "web", "local")
	var page struct{ Items []map[string]any }
	w.ok("fibe_playgrounds_list", map[string]any{"status": "running", "sort": "created_at_desc", "playspec": "web", "marquee": "local"}, &page)
	if len(page.Items) != 1 || page.Items[0]["name"] != "q-1" {
		t.Fatalf("items %v", page.Items)
	}
	var q url.Values
	for _, r := range w.reqs.all() {
		if r.Method == "GET" && r.Path == "/api/playgrounds" {
			q, _ = url.ParseQuery(r.Query)
		}
	}
	for k, v := range map[string]string{"status": "running", "sort": "created_at_desc", "playspec_id": "web", "marquee_id": "local"} {
		if q.Get(k) != v {
			t.Errorf("query %s = %q, want %q (query %v)", k, q.Get(k), v, q)
		}
	}
}

// A create's env is an object of strings on the wire; a numeric reference
// is sent as a number (resource.IDOrName).
func TestCreateBodyIsTheDescriptions(t *testing.T) {
	w := newWorld(t, localapi.Config{})
	key := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(key, []byte("PRIVATE"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.ok("fibe_marquees_create", map[string]any{"name": "body-mq", "host": "203.0.113.9", "port": 2222, "ssh_key_file": key}, nil)
	var sent map[string]any
	for _, r := range w.reqs.all() {
		if r.Method == "POST" && r.Path == "/api/marquees" {
			if err := json.Unmarshal(r.Body, &sent); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, _ := sent["marquee"].(map[string]any)
	if m == nil {
		m = sent
	}
	if m["ssh_private_key"] != "PRIVATE" || m["port"] != float64(2222) || m["host"] != "203.0.113.9" {
		t.Fatalf("body %v", sent)
	}
}
