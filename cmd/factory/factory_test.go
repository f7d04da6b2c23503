package factory_test

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/cmdutil/cmdtest"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
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
