package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// GetSpec describes the get command of one kind of resource.
type GetSpec[T any] struct {
	Resource *resource.Resource
	Example  string
	Complete CompletionFunc
	// Card prints the resource for people (create and update print it too).
	Card func(ios *iostreams.IOStreams, item *T) error
}

// GetOptions are the inputs of a get command.
type GetOptions[T any] struct {
	Seams
	Spec GetSpec[T]
	Ref  string
}

// NewCmdGet builds `fibe <resources> get <id|name>`; runF replaces GetRun in tests.
func NewCmdGet[T any](f *Factory, spec GetSpec[T], runF func(context.Context, *GetOptions[T]) error) *cobra.Command {
	opts := &GetOptions[T]{Seams: f.Seams(), Spec: spec}
	return &cobra.Command{
		Use:               "get <id|name>",
		Aliases:           []string{"show", "view"},
		Short:             "Show a " + spec.Resource.Singular,
		Example:           spec.Example,
		Args:              ExactArgs(1, "<id|name>"),
		ValidArgsFunction: spec.Complete,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return GetRun(cmd.Context(), opts)
		},
	}
}

// GetRun fetches the resource and prints it: JSON, or its card.
func GetRun[T any](ctx context.Context, opts *GetOptions[T]) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	got, _, err := opts.Spec.Resource.Get(ctx, c, opts.Ref)
	if err != nil {
		return err
	}
	item := itemAs[T](got)
	if opts.IO.JSON() {
		return opts.IO.PrintJSON(item)
	}
	return opts.Spec.Card(opts.IO, item)
}
