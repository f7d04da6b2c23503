// Package status implements `fibe status`: what the account holds, its
// plan, quotas and rate limit, from GET /api/status.
package status

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Options are the inputs of `fibe status`.
type Options struct {
	cmdutil.Seams
}

// NewCmdStatus builds `fibe status`; runF replaces statusRun in tests.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "status",
		Short: "Show what your account holds: counts, plan, quotas and rate limit",
		Example: `  fibe status
  fibe status --json --jq .secrets`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return statusRun(cmd.Context(), opts)
		},
	}
}

func statusRun(ctx context.Context, opts *Options) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	st, _, err := c.Status(ctx)
	if err != nil {
		return err
	}
	if opts.IO.JSON() {
		return opts.IO.PrintJSON(st)
	}
	return printStatus(opts.IO, st)
}

// printStatus is the card people see.
func printStatus(ios *iostreams.IOStreams, st *client.AccountStatus) error {
	d := iostreams.NewDetail(ios.Out, ios.ColorScheme())
	d.Add("Playgrounds", fmt.Sprintf("%d (%d active, %d stopped)", st.Playgrounds.Total, st.Playgrounds.Active, st.Playgrounds.Stopped))
	d.Add("Agents", fmt.Sprintf("%d (%d authenticated)", st.Agents.Total, st.Agents.Authenticated))
	for _, c := range []struct {
		label string
		n     int
	}{{"Playspecs", st.Playspecs}, {"Props", st.Props}, {"Marquees", st.Marquees}, {"Secrets", st.Secrets}, {"API keys", st.APIKeys}} {
		d.Add(c.label, fmt.Sprint(c.n))
	}
	plan := output.Sanitize(st.Subscription.Plan)
	if l := st.Subscription.PlaygroundLimit; l != nil {
		plan += fmt.Sprintf(" (up to %d playgrounds)", *l)
	}
	d.Add("Plan", plan)
	names := make([]string, 0, len(st.ResourceQuotas))
	for name := range st.ResourceQuotas {
		names = append(names, name)
	}
	slices.Sort(names)
	var quotas []string
	for _, name := range names {
		q := st.ResourceQuotas[name]
		limit := "unlimited"
		if q.Limit != nil {
			limit = fmt.Sprint(*q.Limit)
		}
		line := fmt.Sprintf("%s %d/%s", output.Sanitize(name), q.Used, limit)
		if q.Status != "" && q.Status != "ok" {
			line += " (" + output.Sanitize(q.Status) + ")"
		}
		quotas = append(quotas, line)
	}
	d.Add("Quotas", strings.Join(quotas, ", "))
	if rl := st.RateLimits; rl != nil && rl.API != nil {
		d.Add("Rate limit", fmt.Sprintf("%d of %d requests left, resets in %s", rl.API.Remaining, rl.API.Limit,
			(time.Duration(rl.API.ResetSeconds)*time.Second).String()))
	}
	return d.Render()
}
