package webhooks

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// TestOptions are the inputs of `fibe webhooks test`.
type TestOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
}

// NewCmdTest builds `fibe webhooks test <id>`.
func NewCmdTest(f *cmdutil.Factory, runF func(context.Context, *TestOptions) error) *cobra.Command {
	opts := &TestOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "test <id>",
		Short: "Queue a webhook.test delivery to an endpoint",
		Long: `Queue a webhook.test delivery to an endpoint, whether it subscribes to
webhook.test or not, and even while it is disabled. The delivery is sent
after the answer: follow it with "fibe webhooks deliveries <id>".`,
		Example: `  fibe webhooks test 12
  fibe webhooks test 12 && fibe webhooks deliveries 12 --status failed`,
		Args: cmdutil.ExactArgs(1, "<id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return testRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func testRun(ctx context.Context, opts *TestOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, &cmdutil.WaitFlags{})
	if err != nil {
		return err
	}
	d, resp, err := c.Webhooks.Test(ctx, opts.Ref, mo, client.WaitOptions{})
	if err != nil {
		return opts.WaitFailed(err)
	}
	ios := opts.IO
	return opts.Finish(resp, d, d == nil, func() error {
		_, err := fmt.Fprintf(ios.Out, "%s Test delivery %d queued to endpoint %s\n", iostreams.Check(ios.ColorScheme()), d.ID, opts.Ref)
		return err
	})
}
