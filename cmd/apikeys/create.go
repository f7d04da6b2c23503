package apikeys

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateOptions are the inputs of `fibe api-keys create`.
type CreateOptions struct {
	cmdutil.Seams
	Label     string
	Scopes    []string
	ExpiresAt string
	Mutation  cmdutil.MutationFlags
}

// NewCmdCreate builds `fibe api-keys create`; runF replaces createRun in
// tests.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "create --label LABEL --scope SCOPE... [--expires-at TIME]",
		Short: "Create an API key (its token is shown once)",
		Long: `Create an API key holding the scopes given (at least one; a scope is
<resource>:read, :write, :delete or :manage, e.g. secrets:read).

The new key's token is printed on standard output, once: it cannot be
shown again. Store it now (a password manager, a CI secret). --json prints
the key with its token.`,
		Example: `  fibe api-keys create --label ci --scope playgrounds:read --scope playgrounds:write
  fibe api-keys create --label reader --scope secrets:read --expires-at 2027-01-31 > token.txt`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Label, "label", "", "What the key is for")
	fl.StringArrayVar(&opts.Scopes, "scope", nil, "A scope the key holds, e.g. secrets:read (repeatable)")
	fl.StringVar(&opts.ExpiresAt, "expires-at", "", "When the key stops working (ISO 8601; default never)")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	if strings.TrimSpace(opts.Label) == "" {
		return output.FlagErrorf("--label is required")
	}
	body, err := resource.APIKeys().Body(resource.VerbCreate, nil,
		resource.Values{"label": opts.Label, "scopes": opts.Scopes, "expires-at": opts.ExpiresAt})
	if err != nil {
		var ie *resource.InputError
		if errors.As(err, &ie) {
			flag := ie.Arg
			if flag == "scopes" {
				flag = "scope" // one flag a scope
			}
			if ie.Missing {
				return output.FlagErrorf("--%s is required", flag)
			}
			return output.FlagErrorf("--%s %s", flag, ie.Problem)
		}
		return err
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	key, resp, err := c.APIKeys.Create(ctx, body, mo, client.WaitOptions{})
	if err != nil {
		return err
	}
	ios := opts.IO
	return opts.Finish(resp, key, false, func() error {
		if key.Token == "" {
			// A replayed create is answered as the first one was; a
			// server that kept no token has nothing to show.
			ios.Warning("the answer holds no token: it was shown when the key was created")
			return nil
		}
		cs := ios.ErrColorScheme()
		if !ios.Quiet() {
			fmt.Fprintf(ios.ErrOut, "%s Created API key %d (%s) with %s\n", iostreams.Check(cs), key.ID,
				output.Sanitize(key.Label), output.Sanitize(strings.Join(key.Scopes, ", ")))
		}
		ios.Warning("the token below is shown once and cannot be shown again: store it now")
		_, err := fmt.Fprintln(ios.Out, output.Sanitize(key.Token))
		return err
	})
}
