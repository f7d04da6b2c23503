package playgrounds

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// CreateOptions are the inputs of `fibe playgrounds create`.
type CreateOptions = cmdutil.CreateOptions[client.Playground]

// createSpec is `fibe playgrounds create`. f is only for completion.
func createSpec(f *cmdutil.Factory) cmdutil.CreateSpec[client.Playground] {
	return cmdutil.CreateSpec[client.Playground]{
		Resource: resource.Playgrounds(),
		Use:      "create --name NAME --playspec ID|NAME [--marquee ID|NAME] [--env K=V ...] [-f payload.json|-]",
		Short:    "Create a playground",
		Long: `Create a playground from a playspec on a marquee.

Fields may come from a JSON payload (-f FILE, or - for stdin), with or
without the {"playground": {...}} wrapper; flags override the payload.`,
		Example: `  fibe pg create --name preview-42 --playspec web --marquee prod-eu
  fibe pg create --name preview-43 --playspec web --env RAILS_ENV=staging
  fibe pg create -f playground.json`,
		NameInProgress: true,
		Card:           printPlayground,
		Refused:        knownPlayspecs,
		Created:        created,
	}
}

// NewCmdCreate builds `fibe playgrounds create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	return cmdutil.NewCmdCreate(f, createSpec(f), runF)
}

// created prints the new playground and the next step.
func created(ctx context.Context, c *client.Client, s cmdutil.Seams, resp *client.Response, p *client.Playground) error {
	ios := s.IO
	if resp != nil && resp.Replayed {
		// The replayed answer holds the status recorded at the first
		// request ("creating"); the client read the playground again.
		if resp.Refreshed {
			ios.Notice("Showing %s as it is now.", output.Sanitize(p.Name))
		} else {
			ios.Notice("The status below was recorded at the first request.")
		}
	}
	if err := printPlayground(ios, p); err != nil {
		return err
	}
	ios.Notice("Next: %s", output.Sanitize(s.CommandLine("pg", "rollout", p.Name)))
	return nil
}

// knownPlayspecs adds the known playspecs (details.known_playspecs) to a
// refusal of the playspec_id, unless the server's message lists them already.
func knownPlayspecs(ctx context.Context, c *client.Client, err error) {
	var ce *client.Error
	if !errors.As(err, &ce) || ce.Code != client.CodeValidation || strings.Contains(ce.Message, "known") {
		return
	}
	if _, ok := ce.Details["playspec_id"]; !ok {
		return
	}
	specs, _, lerr := c.Playspecs.List(ctx, client.ListOptions{PerPage: 100})
	if lerr != nil || len(specs) == 0 {
		return
	}
	names := make([]string, len(specs))
	for i, ps := range specs {
		names[i] = ps.Name
	}
	ce.Details["known_playspecs"] = names
}
