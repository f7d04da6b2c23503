package cmdutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// widget is a resource that exists only in these tests: adding it takes
// the specs below and nothing else.
type widget struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

func widgetCard(ios *iostreams.IOStreams, w *widget) error {
	_, err := fmt.Fprintf(ios.Out, "widget %s (%d)\n", w.Name, w.Size)
	return err
}

var widgetFields = []Field{
	{Flag: "name", Key: "name", Help: "Name", Required: `"name"`},
	{Flag: "size", Key: "size", Help: "Size", Kind: FieldInt, Check: func(n int) error {
		if n < 1 {
			return output.FlagErrorf("--size must be positive")
		}
		return nil
	}},
	{Flag: "shop", Key: "shop_id", Help: "Shop id or name", Kind: FieldRef, Required: `a "shop"`},
	{Flag: "env", Key: "env", Help: "KEY=VALUE", Kind: FieldEnv},
	{Flag: "secret-file", Key: "secret", Help: "Secret file", Kind: FieldFile},
}

var widgetPayload = PayloadSchema{Wrapper: "widget", Fields: []string{"name", "size", "shop_id", "env", "secret"}}

// testSeams are test streams and a client constructor the widget specs
// never use (they keep their widgets in memory).
func testSeams() (Seams, *bytes.Buffer, *bytes.Buffer) {
	ios, _, out, errOut := iostreams.Test()
	return Seams{IO: ios, Client: func() (*client.Client, error) { return nil, nil }}, out, errOut
}

// The flags of every kind become the body, over a payload file; flags win.
func TestCreateSpecBody(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := New(ios, nil)
	var got *CreateOptions[widget]
	cmd := NewCmdCreate(f, CreateSpec[widget]{Noun: "widget", Use: "create", Fields: widgetFields, Payload: widgetPayload},
		func(_ context.Context, o *CreateOptions[widget]) error { got = o; return nil })
	dir := t.TempDir()
	payload, secret := filepath.Join(dir, "w.json"), filepath.Join(dir, "secret")
	if err := os.WriteFile(payload, []byte(`{"widget": {"name": "from-file", "size": 3, "env": {"B": "2"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secret, []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd.SetArgs([]string{"-f", payload, "--size", "5", "--shop", "12", "--env", "A=1", "--secret-file", secret})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	body, err := CreateBody(got)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "from-file", "size": 5, "shop_id": int64(12), "env": map[string]any{"A": "1", "B": "2"}, "secret": "s3cret"}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %#v\nwant %#v", body, want)
	}

	for _, c := range []struct {
		values map[string]any
		want   string
	}{
		{map[string]any{"shop": "s"}, `--name is required (or "name" in the payload)`},
		{map[string]any{"name": "n"}, `--shop is required (or a "shop" in the payload)`},
		{map[string]any{"name": "n", "shop": "s", "size": 0}, "--size must be positive"},
		{map[string]any{"name": "n", "shop": "s", "env": []string{"novalue"}}, "novalue"},
		{map[string]any{"name": "n", "shop": "s", "secret-file": filepath.Join(dir, "missing")}, "cannot read --secret-file"},
	} {
		got.File, got.Values = "", c.values
		if _, err := CreateBody(got); output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.values, err, c.want)
		}
	}
}

// List passes the common and the resource's own filters, pages or fetches
// all, and draws the table.
func TestListSpec(t *testing.T) {
	var seen client.ListOptions
	all := false
	spec := ListSpec[widget]{
		Plural: "widgets", Statuses: []string{"new"}, SortKeys: []string{"name"},
		Filters: []ListFilter{{Flag: "shop", Help: "Shop", Apply: func(lo *client.ListOptions, v string) { lo.MarqueeID = v }}},
		List: func(_ context.Context, _ *client.Client, lo client.ListOptions) ([]widget, *client.ListMeta, error) {
			seen = lo
			return []widget{{Name: "a", Size: 1}}, &client.ListMeta{Page: 1, Total: 2}, nil
		},
		ListAll: func(_ context.Context, _ *client.Client, lo client.ListOptions) ([]widget, error) {
			seen, all = lo, true
			return []widget{{Name: "a", Size: 1}, {Name: "b", Size: 2}}, nil
		},
		Table: func(ios *iostreams.IOStreams, items []widget) error {
			for _, w := range items {
				if err := widgetCard(ios, &w); err != nil {
					return err
				}
			}
			return nil
		},
	}
	seams, out, errOut := testSeams()
	run := func(args ...string) {
		t.Helper()
		ios, _, _, _ := iostreams.Test()
		cmd := NewCmdList(New(ios, nil), spec, func(ctx context.Context, o *ListOptions[widget]) error {
			o.Seams = seams
			return ListRun(ctx, o)
		})
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
	}
	run("--shop", "main", "--status", "new", "--sort", "name", "--per-page", "1")
	if seen.MarqueeID != "main" || seen.Status != "new" || seen.Sort != "name" || seen.PerPage != 1 || all {
		t.Errorf("list options %+v (all %v)", seen, all)
	}
	if out.String() != "widget a (1)\n" || errOut.String() != "Showing 1 of 2 (page 1); use --page or --all for more.\n" {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	out.Reset()
	errOut.Reset()
	run("--all")
	if !all || seen.MarqueeID != "" || out.String() != "widget a (1)\nwidget b (2)\n" || errOut.Len() != 0 {
		t.Errorf("--all: %+v stdout %q stderr %q", seen, out, errOut)
	}
}

// Create and update call the spec, print the card (or Created's words),
// JSON as is; a refusal goes through Refused; an update without a change
// is a usage error.
func TestCreateAndUpdateSpecRun(t *testing.T) {
	seams, out, _ := testSeams()
	ctx := context.Background()
	var sent map[string]any
	spec := CreateSpec[widget]{
		Noun: "widget", Fields: widgetFields, Payload: widgetPayload, Card: widgetCard,
		Create: func(_ context.Context, _ *client.Client, body map[string]any, _ client.MutationOptions, _ client.WaitOptions) (*widget, *client.Response, error) {
			sent = body
			if body["name"] == "taken" {
				return nil, nil, &client.Error{Code: client.CodeValidation, Message: "name is taken", Details: map[string]any{}}
			}
			return &widget{Name: body["name"].(string), Size: 1}, &client.Response{}, nil
		},
		Refused: func(_ context.Context, _ *client.Client, err error) {
			var ce *client.Error
			if errors.As(err, &ce) {
				ce.Details["known_names"] = []string{"free"}
			}
		},
	}
	create := func(name string) error {
		out.Reset()
		return CreateRun(ctx, &CreateOptions[widget]{Seams: seams, Spec: spec, BodyFlags: BodyFlags{Values: map[string]any{"name": name, "shop": "7"}}})
	}
	if err := create("w1"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "widget w1 (1)\n" || sent["shop_id"] != int64(7) {
		t.Errorf("create: %q, sent %v", out, sent)
	}
	err := create("taken")
	var ce *client.Error
	if !errors.As(err, &ce) || !reflect.DeepEqual(ce.Details["known_names"], []string{"free"}) {
		t.Errorf("refused create: %v", err)
	}
	spec.Created = func(_ context.Context, _ *client.Client, s Seams, _ *client.Response, w *widget) error {
		_, err := fmt.Fprintf(s.IO.Out, "made %s\n", w.Name)
		return err
	}
	if err := create("w2"); err != nil || out.String() != "made w2\n" {
		t.Errorf("create with Created: %q (%v)", out, err)
	}
	seams.IO.SetJSON(true)
	if err := create("w3"); err != nil || out.String() != "{\n  \"name\": \"w3\",\n  \"size\": 1\n}\n" {
		t.Errorf("create --json: %q (%v)", out, err)
	}
	seams.IO.SetJSON(false)

	uspec := UpdateSpec[widget]{
		Noun: "widget", Fields: widgetFields[:2], Payload: widgetPayload, Card: widgetCard,
		Update: func(_ context.Context, _ *client.Client, ref string, body map[string]any, _ client.MutationOptions) (*widget, *client.Response, error) {
			return &widget{Name: ref, Size: body["size"].(int)}, &client.Response{}, nil
		},
	}
	out.Reset()
	if err := UpdateRun(ctx, &UpdateOptions[widget]{Seams: seams, Spec: uspec, Ref: "w1", BodyFlags: BodyFlags{Values: map[string]any{"size": 9}}}); err != nil || out.String() != "widget w1 (9)\n" {
		t.Errorf("update: %q (%v)", out, err)
	}
	err = UpdateRun(ctx, &UpdateOptions[widget]{Seams: seams, Spec: uspec, Ref: "w1"})
	if output.ExitCode(err) != output.ExitUsage || err.Error() != "nothing to change: give --name, --size or -f" {
		t.Errorf("update without a change: %v", err)
	}
}
