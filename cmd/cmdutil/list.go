package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ListSpec describes the list command of one kind of resource: what it is
// called, what its filters accept, how to fetch a page or every page, and
// the table people see.
// The statuses, sort keys, filters and table come from the resource's
// description; T is the client's type of one item.
type ListSpec[T any] struct {
	Resource *resource.Resource
	Long     string
	Example  string
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
	r := spec.Resource
	values := make([]string, len(r.Filters))
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List " + r.Name,
		Long:    spec.Long,
		Example: spec.Example,
		Args:    NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.ListFlags.Validate(cmd); err != nil {
				return err
			}
			if err := opts.FilterFlags.Validate(opts.IO.Warning); err != nil {
				return err
			}
			opts.Filters = map[string]string{}
			for i, fl := range r.Filters {
				if err := resource.CheckFilter(fl, values[i]); err != nil {
					return inputError(err, PayloadSchema{})
				}
				if values[i] != "" {
					opts.Filters[fl.Arg] = values[i]
				}
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return ListRun(cmd.Context(), opts)
		},
	}
	AddFilterFlags(f, cmd, &opts.FilterFlags, r.Name, r.Statuses, r.SortKeys, r.ListLacks)
	for i, fl := range r.Filters {
		cmd.Flags().StringVar(&values[i], fl.Arg, "", fl.Help)
		if complete := completeRefers(f, fl.Refers); complete != nil {
			f.CompleteFlag(cmd, fl.Arg, complete)
		} else if len(fl.Values) > 0 {
			f.CompleteFlag(cmd, fl.Arg, cobra.FixedCompletions(fl.Values, cobra.ShellCompDirectiveNoFileComp))
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
	r := opts.Spec.Resource
	lo := client.ListOptions{Page: opts.Page, PerPage: opts.PerPage}
	for _, fl := range r.Filters {
		resource.ApplyFilter(&lo, fl, opts.Filters[fl.Arg])
	}
	opts.FilterFlags.Apply(&lo)
	var listed any
	var meta *client.ListMeta
	if opts.All {
		listed, err = r.ListAll(ctx, c, lo)
	} else {
		listed, meta, err = r.List(ctx, c, lo)
	}
	if err != nil {
		return err
	}
	items := sliceAs[T](listed)
	return PrintList(opts.IO, items, meta, r.Name, func(items []T) error {
		return PrintTable(opts.IO, r, items)
	})
}
