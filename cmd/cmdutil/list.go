package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// ListSpec describes the list command of one kind of resource: what it is
// called, what its filters accept, how to fetch a page or every page, and
// the table people see.
type ListSpec[T any] struct {
	Plural   string // "playgrounds"
	Long     string
	Example  string
	Statuses []string // what --status accepts (docs/api.md, Lists)
	SortKeys []string // what --sort accepts
	// Filters are the resource's own filter flags, after the common ones.
	Filters []ListFilter
	List    func(ctx context.Context, c *client.Client, lo client.ListOptions) ([]T, *client.ListMeta, error)
	ListAll func(ctx context.Context, c *client.Client, lo client.ListOptions) ([]T, error)
	Table   func(ios *iostreams.IOStreams, items []T) error
}

// ListFilter is a filter flag of one resource (`pg list --playspec web`).
type ListFilter struct {
	Flag     string
	Help     string
	Complete CompletionFunc
	// Apply puts a given value into the list options.
	Apply func(lo *client.ListOptions, value string)
}

// ListOptions are the inputs of a list command.
type ListOptions[T any] struct {
	Seams
	Spec ListSpec[T]
	FilterFlags
	ListFlags
	// Filters holds the values of Spec.Filters, by flag name.
	Filters map[string]string
}

// NewCmdList builds `fibe <resources> list`; runF replaces ListRun in tests.
func NewCmdList[T any](f *Factory, spec ListSpec[T], runF func(context.Context, *ListOptions[T]) error) *cobra.Command {
	opts := &ListOptions[T]{Seams: f.Seams(), Spec: spec}
	values := make([]string, len(spec.Filters))
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List " + spec.Plural,
		Long:    spec.Long,
		Example: spec.Example,
		Args:    NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.ListFlags.Validate(cmd); err != nil {
				return err
			}
			if err := opts.FilterFlags.Validate(); err != nil {
				return err
			}
			opts.Filters = map[string]string{}
			for i, fl := range spec.Filters {
				if values[i] != "" {
					opts.Filters[fl.Flag] = values[i]
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return ListRun(cmd.Context(), opts)
		},
	}
	AddFilterFlags(f, cmd, &opts.FilterFlags, spec.Plural, spec.Statuses, spec.SortKeys)
	for i, fl := range spec.Filters {
		cmd.Flags().StringVar(&values[i], fl.Flag, "", fl.Help)
		if fl.Complete != nil {
			f.CompleteFlag(cmd, fl.Flag, fl.Complete)
		}
	}
	AddListFlags(cmd, &opts.ListFlags)
	return cmd
}

// ListRun fetches a page (or, with --all, every page) and prints it.
func ListRun[T any](ctx context.Context, opts *ListOptions[T]) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	spec := opts.Spec
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage}
	for _, fl := range spec.Filters {
		if v := opts.Filters[fl.Flag]; v != "" {
			fl.Apply(&lo, v)
		}
	}
	opts.FilterFlags.Apply(&lo)
	var items []T
	var meta *client.ListMeta
	if opts.All {
		items, err = spec.ListAll(ctx, c, lo)
	} else {
		items, meta, err = spec.List(ctx, c, lo)
	}
	if err != nil {
		return err
	}
	return PrintList(opts.IO, items, meta, spec.Plural, func(items []T) error {
		return spec.Table(opts.IO, items)
	})
}
