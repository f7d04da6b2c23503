package marquees

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
)

// RefOptions are the inputs of the async marquee commands.
type RefOptions struct {
	cmdutil.Seams
	Ref      string
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// connectionFailed is returned when the test ran but could not connect:
// the operation succeeded, the marquee is unreachable (exit 1, nothing on stdout).
type connectionFailed struct{ msg string }

func (e *connectionFailed) Error() string { return "connection test failed: " + e.msg }

// NewCmdTestConnection builds `fibe marquees test-connection <id|name>`.
func NewCmdTestConnection(f *cmdutil.Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	return newAsyncRefCmd(f, &cobra.Command{
		Use:   "test-connection <id|name>",
		Short: "Check that Fibe can reach a marquee over SSH",
		Long: `Check that Fibe can reach a marquee over SSH. The test runs on the
server; the command waits for it and exits 1 when the marquee cannot be
reached.`,
		Example: `  fibe mq test-connection staging
  fibe mq test-connection staging --no-wait --json`,
	}, orDefault(runF, testConnectionRun))
}

// newAsyncRefCmd completes cmd as a marquee command that takes one
// <id|name> and starts an async operation.
func newAsyncRefCmd(f *cmdutil.Factory, cmd *cobra.Command, run func(context.Context, *RefOptions) error) *cobra.Command {
	opts := &RefOptions{Seams: f.Seams()}
	cmd.Args = cmdutil.ExactArgs(1, "<id|name>")
	cmd.ValidArgsFunction = cmdutil.CompleteMarqueeNames(f)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		opts.Ref = args[0]
		return run(cmd.Context(), opts)
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func orDefault(runF, run func(context.Context, *RefOptions) error) func(context.Context, *RefOptions) error {
	if runF != nil {
		return runF
	}
	return run
}

func testConnectionRun(ctx context.Context, opts *RefOptions) error {
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Testing connection to "+opts.Ref, wo)
	res, resp, err := c.Marquees.TestConnection(ctx, opts.Ref, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	if res != nil && !res.OK {
		// The test ran but could not connect: a failure for scripts too.
		opts.ReplayNotice(resp)
		msg := res.Message
		if res.Error != "" && res.Error != msg {
			msg += msgSuffix(res.Error)
		}
		return &connectionFailed{msg: msg}
	}
	ios := opts.IO
	return opts.Finish(resp, res, res == nil, func() error {
		_, err := io.WriteString(ios.Out, iostreams.Check(ios.ColorScheme())+" Connected to "+opts.Ref+msgSuffix(res.Message)+"\n")
		return err
	})
}

func msgSuffix(m string) string {
	if m == "" {
		return ""
	}
	return ": " + m
}

// NewCmdSSHKey builds `fibe marquees ssh-key <id|name>`.
func NewCmdSSHKey(f *cmdutil.Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	return newAsyncRefCmd(f, &cobra.Command{
		Use:   "ssh-key <id|name>",
		Short: "Generate a new SSH key pair for a marquee and print its public key",
		Long: `Generate a new SSH key pair for a marquee and print its public key, to
add to the server's authorized_keys. The private key stays with Fibe.`,
		Example: `  fibe mq ssh-key staging | ssh deploy@203.0.113.7 'cat >> ~/.ssh/authorized_keys'
  fibe mq ssh-key staging --jq .public_key`,
	}, orDefault(runF, sshKeyRun))
}

func sshKeyRun(ctx context.Context, opts *RefOptions) error {
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Generating an SSH key for "+opts.Ref, wo)
	key, resp, err := c.Marquees.SSHKey(ctx, opts.Ref, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	return opts.Finish(resp, key, key == nil, func() error {
		_, err := io.WriteString(opts.IO.Out, key.PublicKey+"\n")
		return err
	})
}
