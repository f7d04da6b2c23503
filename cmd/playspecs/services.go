package playspecs

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// ServicesOptions are the inputs of `fibe playspecs services`.
type ServicesOptions struct {
	cmdutil.Seams
	Ref string
}

// NewCmdServices builds `fibe playspecs services <id|name>`.
func NewCmdServices(f *cmdutil.Factory, runF func(context.Context, *ServicesOptions) error) *cobra.Command {
	opts := &ServicesOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "services <id|name>",
		Short: "List the services of a playspec",
		Long: `List the services of a playspec, as read from its compose and its service
definitions: the image, whether the service gets a public URL (the
fibe.gg/port label or an exposure) and whether a job-mode playground
watches it.`,
		Example: `  fibe ps services web
  fibe ps services 1 --jq '.[] | select(.public) | .name'`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlayspecNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return servicesRun(cmd.Context(), opts)
		},
	}
}

func servicesRun(ctx context.Context, opts *ServicesOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	services, _, err := c.Playspecs.Services(ctx, opts.Ref)
	if err != nil {
		return err
	}
	return cmdutil.PrintList(opts.IO, services, nil, "services", func(items []client.PlayspecService) error {
		return servicesTable(opts.IO, items)
	})
}

func servicesTable(ios *iostreams.IOStreams, items []client.PlayspecService) error {
	cs := ios.ColorScheme()
	t := iostreams.NewTable(ios.Out, cs, "NAME", "TYPE", "IMAGE", "PUBLIC", "PORT", "JOB WATCH")
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, s := range items {
		port := ""
		if s.Port > 0 {
			port = strconv.Itoa(s.Port)
		}
		t.AddRow(output.Sanitize(s.Name), output.Sanitize(s.Type), output.Sanitize(s.Image), yesNo(s.Public), port, yesNo(s.JobWatch))
	}
	return t.Render()
}
