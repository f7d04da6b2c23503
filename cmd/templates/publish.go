package templates

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// PublishOptions are the inputs of `fibe templates publish` and `unpublish`.
type PublishOptions struct {
	cmdutil.Seams
	Ref      string
	Version  int64 // 0: the latest version
	Public   bool
	Mutation cmdutil.MutationFlags
}

// NewCmdPublish builds `fibe templates publish` (public true) or
// `fibe templates unpublish` (public false).
func NewCmdPublish(f *cmdutil.Factory, public bool, runF func(context.Context, *PublishOptions) error) *cobra.Command {
	opts := &PublishOptions{Seams: f.Seams(), Public: public}
	verb, state := "publish", "public"
	if !public {
		verb, state = "unpublish", "private"
	}
	cmd := &cobra.Command{
		Use:   verb + " <template> [<version-id>]",
		Short: "Make a version of a template " + state + " (the latest by default)",
		Long: `Make a version of a template ` + state + ` (the latest by default). The
current state is read first: when the version already is ` + state + `,
nothing is sent. The platform's publication route flips the flag on every
call, so the change is sent once, under one idempotency key that every
retry reuses: a retry is replayed, never applied twice.`,
		Example: "  fibe templates " + verb + " my-stack\n  fibe templates " + verb + " my-stack 42 --json",
		Args:    cmdutil.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if len(args) == 2 {
				var err error
				if opts.Version, err = versionID(args[1]); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return publishRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func publishRun(ctx context.Context, opts *PublishOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	v, changed, resp, err := c.Templates.SetPublic(ctx, opts.Ref, opts.Version, opts.Public, mo)
	if err != nil {
		return err
	}
	state := "public"
	if !v.Public {
		state = "private"
	}
	if !changed {
		opts.IO.Notice("Version v%d of %s is already %s; nothing was sent.", v.Version, output.Sanitize(opts.Ref), state)
	}
	return opts.Finish(resp, v, false, func() error {
		if !changed {
			return nil
		}
		return done(opts.IO, "Version v%d of %s is now %s", v.Version, output.Sanitize(opts.Ref), state)
	})
}
