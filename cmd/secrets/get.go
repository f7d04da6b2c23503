package secrets

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// GetOptions are the inputs of `fibe secrets get`.
type GetOptions struct {
	cmdutil.Seams
	Ref    string
	Reveal bool
}

// NewCmdGet builds `fibe secrets get <key|id> [--reveal]`; runF replaces
// getRun in tests.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	opts := &GetOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "get <key|id> [--reveal]",
		Aliases: []string{"show", "view"},
		Short:   "Show a secret (its value only with --reveal)",
		Long: `Show a secret: its key, description and dates. The value is shown only
with --reveal, on standard output (--jq .value prints it alone).`,
		Example: `  fibe secrets get DB_URL
  fibe secrets get DB_URL --reveal --jq .value`,
		Args:              cmdutil.ExactArgs(1, "<key|id>"),
		ValidArgsFunction: cmdutil.CompleteSecretKeys(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Reveal, "reveal", false, "Show the secret's value")
	return cmd
}

func getRun(ctx context.Context, opts *GetOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var s *client.Secret
	if opts.Reveal {
		s, _, err = c.Secrets.Reveal(ctx, opts.Ref)
	} else {
		s, _, err = c.Secrets.Get(ctx, opts.Ref)
		if s != nil {
			s.Value = nil // asked not to show it, whatever the server sent
		}
	}
	if err != nil {
		return err
	}
	if opts.IO.JSON() {
		return opts.IO.PrintJSON(s)
	}
	r := resource.Secrets()
	if opts.Reveal {
		withValue := *r
		withValue.Card = append(slices.Clone(r.Card), resource.Column{Header: "Value", Key: "value"})
		r = &withValue
	}
	return cmdutil.PrintCard(opts.IO, r, s)
}
