package playgrounds

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// setup serves an emulator on 127.0.0.1 and returns a Factory pointed at
// it through the environment, as a user would configure it.
func setup(t *testing.T) (*cmdutil.Factory, *bytes.Buffer, *bytes.Buffer, *localapi.Server) {
	t.Helper()
	srv, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey, "FIBE_POLL_INTERVAL": "20ms"})
	ios, _, out, errOut := iostreams.Test()
	return factory.New(ios, nil), out, errOut, srv
}

// createOpts are the inputs of `pg create` with the given flags.
func createOpts(f *cmdutil.Factory, flags map[string]any) *CreateOptions {
	return &CreateOptions{Seams: f.Seams(), Spec: createSpec(f), BodyFlags: cmdutil.BodyFlags{Values: flags}}
}

func TestCreateThenRolloutRun(t *testing.T) {
	f, out, _, _ := setup(t)
	f.IOStreams.SetJSON(true)
	ctx := context.Background()
	if err := cmdutil.CreateRun(ctx, createOpts(f, map[string]any{"name": "unit", "playspec": "web", "env": []string{"A=1"}})); err != nil {
		t.Fatal(err)
	}
	var p client.Playground
	if err := json.Unmarshal(out.Bytes(), &p); err != nil || p.Name != "unit" {
		t.Fatalf("create output %s (%v)", out, err)
	}
	out.Reset()
	if err := actionRun(ctx, &ActionOptions{Seams: f.Seams(), Ref: "unit", Action: rollout}); err != nil {
		t.Fatal(err)
	}
	var st client.PlaygroundStatus
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || st.Status != "running" {
		t.Fatalf("rollout output %s (%v)", out, err)
	}
}

func TestListRunHumanAndEmpty(t *testing.T) {
	f, out, errOut, _ := setup(t)
	ctx := context.Background()
	if err := cmdutil.ListRun(ctx, &ListOptions{Seams: f.Seams(), Spec: listSpec(f)}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || errOut.String() != "No playgrounds.\n" {
		t.Errorf("empty list: stdout %q stderr %q", out, errOut)
	}
	f.IOStreams.SetJSON(true)
	if err := cmdutil.ListRun(ctx, &ListOptions{Seams: f.Seams(), Spec: listSpec(f)}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "[]\n" {
		t.Errorf("empty list as JSON: %q", out)
	}
}

func TestDeleteRequiresYesWhenNotInteractive(t *testing.T) {
	f, _, _, srv := setup(t)
	if err := cmdutil.CreateRun(context.Background(), createOpts(f, map[string]any{"name": "keep", "playspec": "web"})); err != nil {
		t.Fatal(err)
	}
	before := srv.Stats().Mutations
	err := cmdutil.DeleteRun(context.Background(), &cmdutil.DeleteOptions{Seams: f.Seams(), Spec: cmdutil.DeleteSpec{Resource: resource.Playgrounds()}, Ref: "keep"})
	if output.ExitCode(err) != output.ExitUsage {
		t.Fatalf("delete without --yes: %v", err)
	}
	if srv.Stats().Mutations != before {
		t.Error("the delete was sent anyway")
	}
}

func TestCreateFlagsBecomeTheBody(t *testing.T) {
	f, _, _, _ := setup(t)
	var got *CreateOptions
	cmd := NewCmdCreate(f, func(_ context.Context, o *CreateOptions) error { got = o; return nil })
	payload := filepath.Join(t.TempDir(), "pg.json")
	if err := os.WriteFile(payload, []byte(`{"playground": {"name": "from-file", "env_overrides": {"B": "2"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd.SetArgs([]string{"-f", payload, "--playspec", "7", "--marquee", "prod-eu", "--env", "A=1"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	body, err := cmdutil.CreateBody(got)
	if err != nil {
		t.Fatal(err)
	}
	env, _ := body["env_overrides"].(map[string]any)
	if body["name"] != "from-file" || body["playspec_id"] != int64(7) || body["marquee_id"] != "prod-eu" || env["A"] != "1" || env["B"] != "2" {
		t.Errorf("body: %#v", body)
	}

	got.File = ""
	delete(got.Values, "name")
	if _, err := cmdutil.CreateBody(got); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("missing --name: %v", err)
	}
	got.Values["name"], got.Values["env"] = "x", []string{"novalue"}
	if _, err := cmdutil.CreateBody(got); output.ExitCode(err) != output.ExitUsage {
		t.Errorf("bad --env: %v", err)
	}
}

func TestWaitForValidatesStatus(t *testing.T) {
	f, _, _, _ := setup(t)
	ran := false
	cmd := NewCmdWait(f, func(context.Context, *WaitOptions) error { ran = true; return nil })
	cmd.SetArgs([]string{"x", "--for", "sleeping"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); output.ExitCode(err) != output.ExitUsage || ran {
		t.Errorf("--for sleeping: %v (ran %v)", err, ran)
	}
}

// rollout is the rollout action of the playground's description.
var rollout, _ = resource.Playgrounds().Action("rollout")
