package cmdutil

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// CompletionTimeout keeps shell completion snappy: one list call, no retries.
const CompletionTimeout = 2 * time.Second

// CompletionFunc is cobra's dynamic completion signature.
type CompletionFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective)

// CompletePlaygroundNames completes the first argument with playground names.
func CompletePlaygroundNames(f *Factory) CompletionFunc {
	return completeNames(f, func(ctx context.Context, c *client.Client) ([]string, error) {
		items, _, err := c.Playgrounds.List(ctx, client.ListOptions{PerPage: 100})
		names := make([]string, 0, len(items))
		for _, p := range items {
			names = append(names, p.Name+"\t"+p.Status)
		}
		return names, err
	})
}

// CompleteMarqueeNames completes the first argument with marquee names.
func CompleteMarqueeNames(f *Factory) CompletionFunc {
	return completeNames(f, listMarqueeNames)
}

// CompleteMarqueeFlag completes a --marquee flag value.
func CompleteMarqueeFlag(f *Factory) CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeNames(f, listMarqueeNames)(cmd, nil, toComplete)
	}
}

// CompletePlayspecNames completes the first argument with playspec names.
func CompletePlayspecNames(f *Factory) CompletionFunc {
	return completeNames(f, listPlayspecNames)
}

// CompletePlayspecFlag completes a --playspec flag value from GET
// /api/playspecs.
func CompletePlayspecFlag(f *Factory) CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeNames(f, listPlayspecNames)(cmd, nil, toComplete)
	}
}

func listPlayspecNames(ctx context.Context, c *client.Client) ([]string, error) {
	items, _, err := c.Playspecs.List(ctx, client.ListOptions{PerPage: 100})
	names := make([]string, 0, len(items))
	for _, p := range items {
		names = append(names, p.Name+"\t"+p.Description)
	}
	return names, err
}

func listMarqueeNames(ctx context.Context, c *client.Client) ([]string, error) {
	items, _, err := c.Marquees.List(ctx, client.ListOptions{PerPage: 100})
	names := make([]string, 0, len(items))
	for _, m := range items {
		names = append(names, m.Name+"\t"+m.Host)
	}
	return names, err
}

func completeNames(f *Factory, list func(context.Context, *client.Client) ([]string, error)) CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// Completion runs without the root's pre-run: adopt the flags and
		// keep stderr silent.
		f.SetFlags(cmd.Flags())
		f.IOStreams.SetQuiet(true)
		c, err := f.CompletionClient()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		parent := cmd.Context()
		if parent == nil {
			parent = context.Background()
		}
		ctx, cancel := context.WithTimeout(parent, CompletionTimeout)
		defer cancel()
		names, err := list(ctx, c)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := names[:0]
		for _, n := range names {
			if strings.HasPrefix(n, toComplete) {
				out = append(out, n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteSecretKeys completes the first argument with secret keys.
func CompleteSecretKeys(f *Factory) CompletionFunc {
	return completeNames(f, func(ctx context.Context, c *client.Client) ([]string, error) {
		items, _, err := c.Secrets.List(ctx, client.ListOptions{PerPage: 100})
		keys := make([]string, 0, len(items))
		for _, s := range items {
			keys = append(keys, s.Key+"\t"+s.Description)
		}
		return keys, err
	})
}

// CompleteNames completes the first argument with the names of r's items
// (the first page of 100), from its description's list.
func CompleteNames(f *Factory, r *resource.Resource) CompletionFunc {
	return completeNames(f, func(ctx context.Context, c *client.Client) ([]string, error) {
		listed, _, err := r.List(ctx, c, client.ListOptions{PerPage: 100})
		if err != nil {
			return nil, err
		}
		rows, err := asObjects(listed)
		names := make([]string, 0, len(rows))
		for _, row := range rows {
			if name, ok := row["name"].(string); ok && name != "" {
				names = append(names, name)
			}
		}
		return names, err
	})
}
