package webhooks

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/output"
)

// EventTypesOptions are the inputs of `fibe webhooks event-types`.
type EventTypesOptions struct {
	cmdutil.Seams
}

// NewCmdEventTypes builds `fibe webhooks event-types`.
func NewCmdEventTypes(f *cmdutil.Factory, runF func(context.Context, *EventTypesOptions) error) *cobra.Command {
	opts := &EventTypesOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:     "event-types",
		Short:   "List the events an endpoint may subscribe to",
		Example: "  fibe webhooks event-types\n  fibe webhooks event-types --jq '.[] | select(startswith(\"playground.\"))'",
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return eventTypesRun(cmd.Context(), opts)
		},
	}
}

func eventTypesRun(ctx context.Context, opts *EventTypesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	types, _, err := c.Webhooks.EventTypes(ctx)
	if err != nil {
		return err
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(types)
	}
	var b strings.Builder
	for _, t := range types {
		b.WriteString(output.Sanitize(t) + "\n")
	}
	_, err = io.WriteString(ios.Out, b.String())
	return err
}
