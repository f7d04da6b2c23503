package cmdutil

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// CreateSpec describes the create command of one kind of resource.
type CreateSpec[T any] struct {
	Noun    string // "playground"
	Use     string // "create --name NAME ..."
	Short   string
	Long    string
	Example string
	Fields  []Field
	Payload PayloadSchema // what -f holds
	// NameInProgress names the new resource in the progress line
	// ("Creating playground preview-42").
	NameInProgress bool
	Create         func(ctx context.Context, c *client.Client, body map[string]any, mo client.MutationOptions, wo client.WaitOptions) (*T, *client.Response, error)
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
	collect = addFieldFlags(f, cmd, spec.Fields, &opts.BodyFlags)
	AddMutationFlags(cmd, &opts.Mutation)
	AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// CreateBody is the body a create sends: the payload and the flags, with
// every required field.
func CreateBody[T any](opts *CreateOptions[T]) (map[string]any, error) {
	body, err := buildBody(opts.IO, opts.Spec.Fields, opts.Spec.Payload, opts.BodyFlags)
	if err != nil {
		return nil, err
	}
	if err := requireFields(opts.Spec.Fields, body); err != nil {
		return nil, err
	}
	return body, nil
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
	label := "Creating " + spec.Noun
	if name, _ := body["name"].(string); spec.NameInProgress {
		label += " " + name
	}
	stop := opts.Progress(label, wo)
	item, resp, err := spec.Create(ctx, c, body, mo, wo)
	stop(err)
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
