package cmdutil

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// The flags of every kind become the body the description builds, over a
// payload file; flags win. Bad input is a usage error naming the flag.
func TestCreateSpecBody(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &Factory{IOStreams: ios}
	var got *CreateOptions[client.Playground]
	cmd := NewCmdCreate(f, CreateSpec[client.Playground]{Resource: resource.Playgrounds(), Use: "create"},
		func(_ context.Context, o *CreateOptions[client.Playground]) error { got = o; return nil })
	dir := t.TempDir()
	payload := filepath.Join(dir, "p.json")
	if err := os.WriteFile(payload, []byte(`{"playground": {"name": "from-file", "marquee": "m1", "env_overrides": {"B": "2"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd.SetArgs([]string{"-f", payload, "--name", "flag", "--playspec", "12", "--env", "A=1"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	body, err := CreateBody(got)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "flag", "marquee_id": "m1", "playspec_id": int64(12), "env_overrides": map[string]any{"A": "1", "B": "2"}}
	if !reflect.DeepEqual(body, want) {
		t.Errorf("body %#v\nwant %#v", body, want)
	}

	for _, c := range []struct {
		values resource.Values
		want   string
	}{
		{resource.Values{"playspec": "s"}, `--name is required (or "name" in the payload)`},
		{resource.Values{"name": "n"}, `--playspec is required (or "playspec_id" in the payload)`},
		{resource.Values{"name": "n", "playspec": "s", "env": []string{"novalue"}}, `--env takes KEY=VALUE, not "novalue"`},
	} {
		got.File, got.Values = "", c.values
		if _, err := CreateBody(got); output.ExitCode(err) != output.ExitUsage || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.values, err, c.want)
		}
	}

	mq := &CreateOptions[client.Marquee]{Spec: CreateSpec[client.Marquee]{Resource: resource.Marquees()}, Seams: got.Seams}
	for _, c := range []struct {
		values resource.Values
		want   string
	}{
		{resource.Values{"name": "n", "host": "h", "port": 0}, "--port must be between 1 and 65535"},
		{resource.Values{"name": "n", "host": "h", "ssh-key-file": filepath.Join(dir, "missing")}, "--ssh-key-file cannot be read: no such file or directory"},
	} {
		mq.Values = c.values
		if _, err := CreateBody(mq); output.ExitCode(err) != output.ExitUsage || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.values, err, c.want)
		}
	}
}
