package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateSpec describes the create command of one kind of resource.
// Its flags, its body and what it means (whether it waits) come from the
// resource's description; T is the client's type of one item.
type CreateSpec[T any] struct {
	Resource *resource.Resource
	Use      string // "create --name NAME ..."
	Short    string
	Long     string
	Example  string
	// NameInProgress names the new resource in the progress line
	// ("Creating playground preview-42").
	NameInProgress bool
	Card           func(ios *iostreams.IOStreams, item *T) error
	// Refused, when set, may add to the error of a refused create what the
	// user can act on, such as the names the server knows.
	Refused func(ctx context.Context, c *client.Client, err error)
	// Created, when set, prints the new resource for people instead of Card.
	Created func(ctx context.Context, c *client.Client, s Seams, resp *client.Response, item *T) error
}

// CreateOptions are the inputs of a create command.
type CreateOptions[T any] struct {
	Seams
	Spec CreateSpec[T]
	BodyFlags
	Mutation MutationFlags
	Wait     WaitFlags
}

// NewCmdCreate builds `fibe <resources> create`; runF replaces CreateRun in tests.
func NewCmdCreate[T any](f *Factory, spec CreateSpec[T], runF func(context.Context, *CreateOptions[T]) error) *cobra.Command {
	opts := &CreateOptions[T]{Seams: f.Seams(), Spec: spec}
	var collect func()
	cmd := &cobra.Command{
		Use:     spec.Use,
		Short:   spec.Short,
		Long:    spec.Long,
		Example: spec.Example,
		Args:    NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			collect()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return CreateRun(cmd.Context(), opts)
		},
	}
	collect = addFieldFlags(f, cmd, spec.Resource.FieldsOf(resource.VerbCreate), &opts.BodyFlags)
	AddMutationFlags(cmd, &opts.Mutation)
	AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// CreateBody is the body a create sends: the payload and the flags, with
// every required field.
func CreateBody[T any](opts *CreateOptions[T]) (map[string]any, error) {
	return buildBody(opts.IO, opts.Spec.Resource, resource.VerbCreate, opts.BodyFlags)
}

// CreateRun builds the body, creates (waiting on a 202 unless --no-wait)
// and prints the result.
func CreateRun[T any](ctx context.Context, opts *CreateOptions[T]) error {
	spec := opts.Spec
	body, err := CreateBody(opts)
	if err != nil {
		return err
	}
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	label := "Creating " + spec.Resource.Singular
	if name, _ := body["name"].(string); spec.NameInProgress {
		label += " " + name
	}
	stop := opts.Progress(label, wo)
	created, resp, err := spec.Resource.Create(ctx, c, body, mo, wo)
	stop(err)
	item := itemAs[T](created)
	if err != nil {
		if spec.Refused != nil {
			spec.Refused(ctx, c, err)
		}
		return opts.WaitFailed(err)
	}
	return opts.Finish(resp, item, item == nil, func() error {
		if spec.Created != nil {
			return spec.Created(ctx, c, opts.Seams, resp, item)
		}
		return spec.Card(opts.IO, item)
	})
}
