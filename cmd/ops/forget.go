package ops

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// ForgetOptions are the inputs of `fibe ops forget`.
type ForgetOptions struct {
	cmdutil.Seams // Client needs no API key: the journal is local state
	Key           string
	All           bool
}

// NewCmdForget builds `fibe ops forget <key>|--all`.
func NewCmdForget(f *cmdutil.Factory, runF func(context.Context, *ForgetOptions) error) *cobra.Command {
	opts := &ForgetOptions{Seams: f.LocalSeams()}
	cmd := &cobra.Command{
		Use:   "forget <key> | --all",
		Short: "Drop unfinished mutations from the outcome journal",
		Long: `Drop an entry (or every entry) of the outcome journal: running that command
again then mints a new idempotency key, so it is a new operation. No
request is sent.`,
		Example: `  fibe ops forget 5f0c2a4e9b1d4c7f8a6e3b2d1c0f9e8d
  fibe ops forget --all`,
		Args: cmdutil.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Key = args[0]
			}
			if opts.All == (opts.Key != "") {
				return output.FlagErrorf("%s: give a key or --all (not both)", cmd.CommandPath())
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return forgetRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.All, "all", false, "Drop every entry")
	return cmd
}

func forgetRun(opts *ForgetOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	ios := opts.IO
	j := c.Journal()
	if opts.All {
		list, err := j.List()
		if err != nil {
			return err
		}
		if err := j.Clear(); err != nil {
			return err
		}
		ios.Notice("Forgot %s.", cmdutil.Plural(len(list), "pending mutation"))
		return nil
	}
	list, err := j.List()
	if err != nil {
		return err
	}
	for _, e := range list {
		if e.Key == opts.Key {
			if err := j.Remove(e.Key); err != nil {
				return err
			}
			ios.Notice("Forgot the %s (key %s); running it again starts a new operation.", firstNonEmpty(e.Label, e.Method+" "+e.Path), e.Key)
			return nil
		}
	}
	ios.Notice("No pending mutation has key %s; nothing to forget.", opts.Key)
	return nil
}
