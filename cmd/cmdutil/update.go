package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// UpdateSpec describes the update command of one kind of resource.
type UpdateSpec[T any] struct {
	Noun     string // "marquee"
	Use      string // "update <id|name> [--name NEW] ..."
	Example  string
	Complete CompletionFunc
	Fields   []Field
	Payload  PayloadSchema
	Update   func(ctx context.Context, c *client.Client, ref string, body map[string]any, mo client.MutationOptions) (*T, *client.Response, error)
	Card     func(ios *iostreams.IOStreams, item *T) error
}

// UpdateOptions are the inputs of an update command.
type UpdateOptions[T any] struct {
	Seams
	Spec UpdateSpec[T]
	Ref  string
	BodyFlags
	Mutation MutationFlags
}

// NewCmdUpdate builds `fibe <resources> update <id|name>`; runF replaces
// UpdateRun in tests.
func NewCmdUpdate[T any](f *Factory, spec UpdateSpec[T], runF func(context.Context, *UpdateOptions[T]) error) *cobra.Command {
	opts := &UpdateOptions[T]{Seams: f.Seams(), Spec: spec}
	var collect func()
	cmd := &cobra.Command{
		Use:               spec.Use,
		Short:             "Change a " + spec.Noun,
		Example:           spec.Example,
		Args:              ExactArgs(1, "<id|name>"),
		ValidArgsFunction: spec.Complete,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			collect()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return UpdateRun(cmd.Context(), opts)
		},
	}
	collect = addFieldFlags(f, cmd, spec.Fields, &opts.BodyFlags)
	AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

// UpdateRun sends the changes and prints the resource as changed.
func UpdateRun[T any](ctx context.Context, opts *UpdateOptions[T]) error {
	spec := opts.Spec
	body, err := buildBody(opts.IO, spec.Fields, spec.Payload, opts.BodyFlags)
	if err != nil {
		return err
	}
	if len(body) == 0 {
		return nothingToChange(spec.Fields)
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	item, resp, err := spec.Update(ctx, c, opts.Ref, body, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, item, false, func() error { return spec.Card(opts.IO, item) })
}
