package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// UpdateSpec describes the update command of one kind of resource.
// Its flags and body come from the resource's description.
type UpdateSpec[T any] struct {
	Resource *resource.Resource
	Use      string // "update <id|name> [--name NEW] ..."
	Example  string
	Complete CompletionFunc
	Card     func(ios *iostreams.IOStreams, item *T) error
}

// UpdateOptions are the inputs of an update command.
type UpdateOptions[T any] struct {
	Seams
	Spec UpdateSpec[T]
	Ref  string
	BodyFlags
	Mutation MutationFlags
	Wait     WaitFlags
}

// NewCmdUpdate builds `fibe <resources> update <id|name>`; runF replaces
// UpdateRun in tests.
func NewCmdUpdate[T any](f *Factory, spec UpdateSpec[T], runF func(context.Context, *UpdateOptions[T]) error) *cobra.Command {
	opts := &UpdateOptions[T]{Seams: f.Seams(), Spec: spec}
	var collect func()
	cmd := &cobra.Command{
		Use:               spec.Use,
		Short:             "Change " + spec.Resource.A(),
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
	collect = addFieldFlags(f, cmd, spec.Resource.FieldsOf(resource.VerbUpdate), &opts.BodyFlags)
	AddMutationFlags(cmd, &opts.Mutation)
	AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// UpdateRun sends the changes and prints the resource as changed.
func UpdateRun[T any](ctx context.Context, opts *UpdateOptions[T]) error {
	spec := opts.Spec
	body, err := buildBody(opts.IO, spec.Resource, resource.VerbUpdate, opts.BodyFlags)
	if err != nil {
		return err
	}
	if len(body) == 0 {
		return nothingToChange(spec.Resource.FieldsOf(resource.VerbUpdate))
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Changing "+spec.Resource.Singular+" "+opts.Ref, wo)
	updated, resp, err := spec.Resource.Update(ctx, c, opts.Ref, body, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	item := itemAs[T](updated)
	return opts.Finish(resp, item, item == nil, func() error { return spec.Card(opts.IO, item) })
}
