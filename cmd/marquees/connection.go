package marquees

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// RefOptions are the inputs of the async marquee commands.
type RefOptions struct {
	Factory  *cmdutil.Factory
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
	opts := &RefOptions{Factory: f}
	cmd := &cobra.Command{
		Use:               "test-connection <id|name>",
		Short:             "Check that Fibe can reach a marquee over SSH",
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompleteMarqueeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return testConnectionRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func testConnectionRun(ctx context.Context, opts *RefOptions) error {
	f := opts.Factory
	mo, wo, c, err := prepare(opts)
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Testing connection to "+opts.Ref, wo)
	res, resp, err := c.Marquees.TestConnection(ctx, opts.Ref, mo, wo)
	stop()
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	if accepted, err := cmdutil.Accepted(f, resp, res == nil); accepted {
		return err
	}
	cmdutil.ReplayNotice(f, resp)
	if !res.OK {
		// The test ran but could not connect: a failure for scripts too.
		return &connectionFailed{msg: res.Message}
	}
	ios := f.IOStreams
	if ios.JSON() {
		return ios.PrintJSON(res)
	}
	_, err = ios.Out.Write([]byte(output.Check(ios.ColorScheme()) + " Connected to " + opts.Ref + msgSuffix(res.Message) + "\n"))
	return err
}

func msgSuffix(m string) string {
	if m == "" {
		return ""
	}
	return ": " + m
}

func prepare(opts *RefOptions) (client.MutationOptions, client.WaitOptions, *client.Client, error) {
	mo, err := opts.Mutation.Options()
	if err != nil {
		return mo, client.WaitOptions{}, nil, err
	}
	wo, err := opts.Wait.Options(opts.Factory)
	if err != nil {
		return mo, wo, nil, err
	}
	c, err := opts.Factory.Client()
	return mo, wo, c, err
}

// NewCmdSSHKey builds `fibe marquees ssh-key <id|name>`.
func NewCmdSSHKey(f *cmdutil.Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	opts := &RefOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "ssh-key <id|name>",
		Short: "Generate a new SSH key pair for a marquee and print its public key",
		Long: `Generate a new SSH key pair for a marquee and print its public key, to
add to the server's authorized_keys. The private key stays with Fibe.`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompleteMarqueeNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return sshKeyRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func sshKeyRun(ctx context.Context, opts *RefOptions) error {
	f := opts.Factory
	mo, wo, c, err := prepare(opts)
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Generating an SSH key for "+opts.Ref, wo)
	key, resp, err := c.Marquees.SSHKey(ctx, opts.Ref, mo, wo)
	stop()
	if err != nil {
		return cmdutil.WaitFailed(f, err)
	}
	if accepted, err := cmdutil.Accepted(f, resp, key == nil); accepted {
		return err
	}
	cmdutil.ReplayNotice(f, resp)
	if f.IOStreams.JSON() {
		return f.IOStreams.PrintJSON(key)
	}
	_, err = f.IOStreams.Out.Write([]byte(key.PublicKey + "\n"))
	return err
}
