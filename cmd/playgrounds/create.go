package playgrounds

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/present"
)

// CreateOptions are the inputs of `fibe playgrounds create`.
type CreateOptions struct {
	Factory  *cmdutil.Factory
	Name     string
	Playspec string
	Marquee  string
	Env      []string
	File     string
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags
}

// NewCmdCreate builds `fibe playgrounds create`.
func NewCmdCreate(f *cmdutil.Factory, runF func(context.Context, *CreateOptions) error) *cobra.Command {
	opts := &CreateOptions{Factory: f}
	cmd := &cobra.Command{
		Use:   "create --name NAME --playspec ID|NAME [--marquee ID|NAME] [--env K=V ...] [-f payload.json|-]",
		Short: "Create a playground",
		Long: `Create a playground from a playspec on a marquee.

Fields may come from a JSON payload (-f FILE, or - for stdin), with or
without the {"playground": {...}} wrapper; flags override the payload.`,
		Example: `  fibe pg create --name preview-42 --playspec web --marquee prod-eu
  fibe pg create --name preview-43 --playspec web --env RAILS_ENV=staging
  fibe pg create -f playground.json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return createRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "Name of the playground")
	cmd.Flags().StringVar(&opts.Playspec, "playspec", "", "Playspec id or name")
	cmd.Flags().StringVar(&opts.Marquee, "marquee", "", "Marquee id or name (default: the account's default marquee)")
	cmd.Flags().StringArrayVar(&opts.Env, "env", nil, "Environment override KEY=VALUE (repeatable)")
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "JSON payload file, or - for stdin")
	_ = cmd.RegisterFlagCompletionFunc("marquee", cmdutil.CompleteMarqueeFlag(f))
	_ = cmd.RegisterFlagCompletionFunc("playspec", cmdutil.CompletePlayspecFlag(f))
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// createPayload is what a -f payload of `pg create` holds. The flags'
// names are accepted for the API's (a "playspec" is a "playspec_id").
var createPayload = cmdutil.PayloadSchema{
	Wrapper: "playground",
	Fields:  []string{"name", "playspec_id", "marquee_id", "env_overrides"},
	Aliases: map[string]string{"playspec": "playspec_id", "marquee": "marquee_id", "env": "env_overrides"},
}

func createBody(opts *CreateOptions) (map[string]any, error) {
	body := map[string]any{}
	if opts.File != "" {
		var err error
		if body, err = cmdutil.ReadPayloadFor(opts.Factory, opts.File, createPayload); err != nil {
			return nil, err
		}
	}
	if opts.Name != "" {
		body["name"] = opts.Name
	}
	if opts.Playspec != "" {
		body["playspec_id"] = cmdutil.IDOrName(opts.Playspec)
	}
	if opts.Marquee != "" {
		body["marquee_id"] = cmdutil.IDOrName(opts.Marquee)
	}
	env, err := cmdutil.ParseEnv(opts.Env)
	if err != nil {
		return nil, err
	}
	cmdutil.MergeEnv(body, "env_overrides", env)
	if _, ok := body["name"]; !ok {
		return nil, present.FlagErrorf("--name is required (or \"name\" in the payload)")
	}
	if _, ok := body["playspec_id"]; !ok {
		return nil, present.FlagErrorf("--playspec is required (or \"playspec\" in the payload)")
	}
	return body, nil
}

func createRun(ctx context.Context, opts *CreateOptions) error {
	body, err := createBody(opts)
	if err != nil {
		return err
	}
	f := opts.Factory
	mo, wo, c, err := cmdutil.Prepare(f, &opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	stop := cmdutil.Progress(f, "Creating playground "+nameOf(body), wo)
	p, resp, err := c.Playgrounds.Create(ctx, body, mo, wo)
	stop(err)
	if err != nil {
		knownPlayspecs(ctx, c, err)
		return cmdutil.WaitFailed(f, err)
	}
	return cmdutil.Finish(f, resp, p, p == nil, func() error {
		if resp != nil && resp.Replayed {
			// The replayed answer holds the status recorded at the first
			// request ("creating"): show the playground as it is now.
			if now, _, err := c.Playgrounds.Get(ctx, p.Name); err == nil {
				p = now
				f.IOStreams.Notice("Showing %s as it is now.", p.Name)
			} else {
				f.IOStreams.Notice("The status below was recorded at the first request.")
			}
		}
		if err := printPlayground(f.IOStreams, p); err != nil {
			return err
		}
		f.IOStreams.Notice("Next: %s", f.Command("pg", "rollout", p.Name))
		return nil
	})
}

func nameOf(body map[string]any) string {
	if s, ok := body["name"].(string); ok {
		return s
	}
	return ""
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
