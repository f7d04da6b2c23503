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

// CategoriesOptions are the inputs of `fibe templates categories`.
type CategoriesOptions struct {
	cmdutil.Seams
	List cmdutil.ListFlags
}

// NewCmdCategories builds `fibe templates categories`.
func NewCmdCategories(f *cmdutil.Factory, runF func(context.Context, *CategoriesOptions) error) *cobra.Command {
	opts := &CategoriesOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "categories",
		Short: "List the categories templates are filed under",
		Example: `  fibe templates categories
  fibe templates create --name my-stack --body compose.yml --category $(fibe templates categories --jq '.[0].id')`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.List.Validate(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return categoriesRun(cmd.Context(), opts)
		},
	}
	cmdutil.AddListFlags(cmd, &opts.List)
	return cmd
}

func categoriesRun(ctx context.Context, opts *CategoriesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	lo := client.ListOptions{Page: opts.List.Page, PerPage: opts.List.PerPage}
	var cats []client.TemplateCategory
	var meta *client.ListMeta
	if opts.List.All {
		cats, err = c.Templates.AllCategories(ctx, lo)
	} else {
		cats, meta, err = c.Templates.Categories(ctx, lo)
	}
	if err != nil {
		return err
	}
	ios := opts.IO
	return cmdutil.PrintList(ios, cats, meta, "categories", func(cats []client.TemplateCategory) error {
		t := iostreams.NewTable(ios.Out, ios.ColorScheme(), "ID", "NAME", "SLUG")
		for _, cat := range cats {
			t.AddRow(strconv.FormatInt(cat.ID, 10), output.Sanitize(cat.Name), output.Sanitize(cat.Slug))
		}
		return t.Render()
	})
}
