package props

import (
	"context"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// MirrorOptions are the inputs of `fibe props mirror`.
type MirrorOptions struct {
	cmdutil.Seams
	SourceURL string
	Name      string
	Mutation  cmdutil.MutationFlags
}

// NewCmdMirror builds `fibe props mirror <source-url> [--name NAME]`.
func NewCmdMirror(f *cmdutil.Factory, runF func(context.Context, *MirrorOptions) error) *cobra.Command {
	opts := &MirrorOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "mirror <source-url> [--name NAME]",
		Short: "Copy a repository into your Fibe Gitea account and link the copy as a prop",
		Long: `Copy a repository (any owner's, public or one you can read) into a new
repository of your Fibe Gitea account and link the copy as a prop. Use it
for a repository Fibe cannot push to.`,
		Example: `  fibe props mirror https://github.com/acme/shop
  fibe props mirror https://github.com/acme/shop --name shop-mirror`,
		Args: cmdutil.ExactArgs(1, "<source-url>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.SourceURL = strings.TrimSpace(args[0])
			if err := validSourceURL(opts.SourceURL); err != nil {
				return err
			}
			if cmd.Flags().Changed("name") && strings.TrimSpace(opts.Name) == "" {
				return output.FlagErrorf("--name must not be blank")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return mirrorRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "Name of the prop and of the copy (default: the source's name)")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

// validSourceURL checks a repository URL locally (exit 2).
func validSourceURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") == "" {
		return output.FlagErrorf("invalid source URL %q: want https://host/owner/repo", s)
	}
	if u.User != nil {
		return output.FlagErrorf("invalid source URL: credentials in the URL are not sent; use a public URL")
	}
	return nil
}

func mirrorRun(ctx context.Context, opts *MirrorOptions) error {
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	p, resp, err := c.Props.Mirror(ctx, opts.SourceURL, opts.Name, mo, client.WaitOptions{})
	if err != nil {
		return err
	}
	return opts.Finish(resp, p, false, func() error { return printProp(opts.IO, p) })
}
