package templates

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// NewCmdVersions is the `fibe templates versions` group.
func NewCmdVersions(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "versions <command>",
		Short: "List, add and delete the versions of a template",
	})
	cmd.AddCommand(NewCmdVersionsList(f, nil), NewCmdVersionsCreate(f, nil), NewCmdVersionsDelete(f, nil))
	return cmd
}

// VersionsListOptions are the inputs of `fibe templates versions list`.
type VersionsListOptions struct {
	cmdutil.Seams
	Ref           string
	Page, PerPage int
}

// NewCmdVersionsList builds `fibe templates versions list <template>`.
func NewCmdVersionsList(f *cmdutil.Factory, runF func(context.Context, *VersionsListOptions) error) *cobra.Command {
	opts := &VersionsListOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "list <template>",
		Aliases: []string{"ls"},
		Short:   "List a template's versions, newest first",
		Example: `  fibe templates versions list my-stack
  fibe templates versions list my-stack --jq '.[] | select(.public) | .id'`,
		Args: cmdutil.ExactArgs(1, "<template>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Page < 0 || opts.PerPage < 0 || opts.PerPage > 100 {
				return output.FlagErrorf("--page must be positive and --per-page between 1 and 100")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return versionsListRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().IntVar(&opts.Page, "page", 0, "Page to fetch (default 1)")
	cmd.Flags().IntVar(&opts.PerPage, "per-page", 0, "Versions per page, at most 100 (default 25)")
	return cmd
}

func versionsListRun(ctx context.Context, opts *VersionsListOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	versions, _, err := c.Templates.Versions(ctx, opts.Ref, client.ListOptions{Page: opts.Page, PerPage: opts.PerPage})
	if err != nil {
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(versions)
	}
	if len(versions) == 0 {
		ios.Notice("No versions.")
		return nil
	}
	t := iostreams.NewTable(ios.Out, ios.ColorScheme(), "ID", "VERSION", "PUBLIC", "CREATED", "CHANGELOG")
	for _, v := range versions {
		t.AddRow(strconv.FormatInt(v.ID, 10), "v"+strconv.FormatInt(v.Version, 10), yesNo(v.Public),
			cmdutil.FormatTime(v.CreatedAt), output.Sanitize(v.Changelog))
	}
	return t.Render()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// VersionsCreateOptions are the inputs of `fibe templates versions create`.
type VersionsCreateOptions struct {
	cmdutil.Seams
	Ref       string
	Body      string // a file, or - for stdin
	Public    bool
	Changelog string
	Mutation  cmdutil.MutationFlags
}

// NewCmdVersionsCreate builds `fibe templates versions create <template> --body FILE|-`.
func NewCmdVersionsCreate(f *cmdutil.Factory, runF func(context.Context, *VersionsCreateOptions) error) *cobra.Command {
	opts := &VersionsCreateOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "create <template> --body FILE|- [--public] [--changelog TEXT]",
		Short: "Add a version to a template",
		Long: `Add a version to a template. A new version is private unless --public
is given; fibe templates publish makes it public later.`,
		Example: `  fibe templates versions create my-stack --body docker-compose.yml --changelog "nginx 1.27"
  cat compose.yml | fibe templates versions create my-stack --body - --public`,
		Args: cmdutil.ExactArgs(1, "<template>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Body == "" {
				return output.FlagErrorf("--body is required: a file holding the version's body, or - for stdin")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return versionsCreateRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Body, "body", "", "File holding the version's body, a compose file (- for stdin)")
	cmd.Flags().BoolVar(&opts.Public, "public", false, "Publish the version at once")
	cmd.Flags().StringVar(&opts.Changelog, "changelog", "", "What changed in this version")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func versionsCreateRun(ctx context.Context, opts *VersionsCreateOptions) error {
	text, err := cmdutil.ReadFileFlag(opts.IO, "--body", opts.Body)
	if err != nil {
		return err
	}
	body := map[string]any{"template_body": string(text)}
	if opts.Public {
		body["public"] = true
	}
	if opts.Changelog != "" {
		body["changelog"] = opts.Changelog
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	v, resp, err := c.Templates.CreateVersion(ctx, opts.Ref, body, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, v, false, func() error {
		return done(opts.IO, "Created version v%d (id %d) of %s", v.Version, v.ID, output.Sanitize(opts.Ref))
	})
}

// VersionsDeleteOptions are the inputs of `fibe templates versions delete`.
type VersionsDeleteOptions struct {
	cmdutil.Seams
	Ref      string
	Version  int64
	Yes      bool
	Mutation cmdutil.MutationFlags
}

// NewCmdVersionsDelete builds `fibe templates versions delete <template> <version-id>`.
func NewCmdVersionsDelete(f *cmdutil.Factory, runF func(context.Context, *VersionsDeleteOptions) error) *cobra.Command {
	opts := &VersionsDeleteOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "delete <template> <version-id>",
		Aliases: []string{"rm"},
		Short:   "Delete a version of a template",
		Example: `  fibe templates versions delete my-stack 42 --yes`,
		Args:    cmdutil.ExactArgs(2, "<template>", "<version-id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			var err error
			if opts.Version, err = versionID(args[1]); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return versionsDeleteRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.Yes, "yes", "y", false, "Do not ask for confirmation")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

func versionsDeleteRun(ctx context.Context, opts *VersionsDeleteOptions) error {
	vid := strconv.FormatInt(opts.Version, 10)
	if err := opts.ConfirmDestructive(ctx, opts.Yes, "Delete version "+vid+" of template "+output.Sanitize(opts.Ref)+"?"); err != nil {
		return err
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	resp, err := c.Templates.DeleteVersion(ctx, opts.Ref, opts.Version, mo)
	if err != nil {
		return err
	}
	result := map[string]any{"id": opts.Version, "deleted": true}
	return opts.Finish(resp, result, false, func() error {
		return done(opts.IO, "Deleted version %s of %s", vid, output.Sanitize(opts.Ref))
	})
}
