package factory_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// --wait-timeout and --poll-interval are the wait_timeout and poll_interval
// settings: a flag wins over the environment, which wins over the default.
func TestWaitFlagsAreSettings(t *testing.T) {
	cmdtest.Isolate(t, map[string]string{"FIBE_POLL_INTERVAL": "3s"})
	var w cmdutil.WaitFlags
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmdutil.AddWaitFlags(cmd, &w)
	cmd.SetArgs([]string{"--wait-timeout", "2m", "--no-wait"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	ios, _, _, _ := iostreams.Test()
	f := factory.New(ios, nil)
	f.SetFlags(cmd.Flags())
	wo, err := f.Seams().WaitOptions(&w)
	if err != nil {
		t.Fatal(err)
	}
	if wo.Timeout != 2*time.Minute || wo.PollInterval != 3*time.Second || !wo.NoWait {
		t.Errorf("wait options: %+v", wo)
	}

	cmd.SetArgs([]string{"--poll-interval", "never"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	f.SetFlags(cmd.Flags())
	if _, err := f.Seams().WaitOptions(&w); output.ExitCode(err) != output.ExitUsage || !strings.Contains(err.Error(), "poll_interval (from flag --poll-interval)") {
		t.Errorf("a bad --poll-interval: %v", err)
	}
}

// An operation the API accepted (202) is recorded by the client the
// Factory builds, so a later process knows which request started it:
// `fibe ops wait` prints its result as that command would.
func TestAcceptedOperationsAreRecorded(t *testing.T) {
	_, url := cmdtest.Emulator(t, localapi.Config{})
	cmdtest.Isolate(t, map[string]string{"FIBE_API_URL": url, "FIBE_API_KEY": localapi.DefaultAPIKey})
	ios, _, _, _ := iostreams.Test()
	f := factory.New(ios, nil)
	c, err := f.Client()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := c.Playgrounds.Create(ctx, map[string]any{"name": "rec", "playspec_id": "web"}, client.MutationOptions{}, client.WaitOptions{}); err != nil {
		t.Fatal(err)
	}
	_, resp, err := c.Playgrounds.Action(ctx, "rec", "rollout", false, client.MutationOptions{}, client.WaitOptions{NoWait: true})
	if err != nil || resp == nil || resp.Accepted == nil {
		t.Fatalf("rollout --no-wait: %+v %v", resp, err)
	}
	id := resp.Accepted.RequestID

	// Another invocation (a new Factory) of the same API finds it.
	g := factory.New(ios, nil)
	method, path, ok := g.OperationOf(id)
	if !ok || method != "POST" || path != "/api/playgrounds/rec/operations" {
		t.Errorf("OperationOf(%s) = %q %q %v", id, method, path, ok)
	}
	if _, _, ok := g.OperationOf("req_never"); ok {
		t.Error("an unknown request id was found")
	}
	// Of another API, the same id is unknown.
	t.Setenv("FIBE_API_URL", "http://127.0.0.1:1")
	if _, _, ok := factory.New(ios, nil).OperationOf(id); ok {
		t.Error("an operation of another API was found")
	}
}
