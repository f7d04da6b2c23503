// Package breaker implements `fibe breaker`: show and reset the circuit
// breakers kept in the state store (the state directory, or the shared
// store of --state-store). Neither sends a request to the API.
package breaker

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// NewCmdBreaker is the `fibe breaker` group.
func NewCmdBreaker(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "breaker <command>",
		Aliases: []string{"breakers"},
		Short:   "Show or reset circuit breakers",
		Long: `Show or reset the circuit breakers. There is one per marquee (and one per
API host for requests that concern no marquee); five consecutive failures
open it for 30 seconds, during which requests fail at once with
CIRCUIT_OPEN (exit 9). The state is shared by every fibe process, and with
--state-store redis://... by every machine that names the same Redis.`,
	})
	cmd.AddCommand(NewCmdStatus(f, nil), NewCmdReset(f, nil))
	return cmd
}

// StatusOptions are the inputs of `fibe breaker status`.
type StatusOptions struct {
	cmdutil.Seams // Client needs no API key: breakers are local state
}

// NewCmdStatus builds `fibe breaker status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Seams: f.LocalSeams()}
	return &cobra.Command{
		Use:   "status",
		Short: "Show the circuit breakers",
		Example: `  fibe breaker status
  fibe breaker status --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return statusRun(opts)
		},
	}
}

// Status is the JSON form of one breaker in `fibe breaker status`: the
// stored state, plus what opened it and when it lets a probe through.
type Status struct {
	client.BreakerStatus
	// OpenedAt is when an open breaker opened (open_until less the open time).
	OpenedAt time.Time `json:"opened_at,omitzero"`
	// OpenedAfter is the number of consecutive failures that open a breaker:
	// an open breaker's count is reset, so this says what opened it.
	OpenedAfter int `json:"opened_after_failures,omitempty"`
	// ProbeAt is when an open breaker lets the first probe through.
	ProbeAt time.Time `json:"probe_at,omitzero"`
}

func statusRun(opts *StatusOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	list, err := c.Breakers()
	if err != nil {
		return err
	}
	policy := c.Policy()
	out := make([]Status, 0, len(list))
	for _, b := range list {
		s := Status{BreakerStatus: b}
		if b.State == "open" && !b.OpenUntil.IsZero() {
			s.OpenedAt = b.OpenUntil.Add(-policy.BreakerOpenTimeout)
			s.OpenedAfter = policy.BreakerThreshold
			s.ProbeAt = b.OpenUntil
		}
		out = append(out, s)
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(out)
	}
	ios.Notice("State store: %s", c.StateStore())
	if len(out) == 0 {
		ios.Notice("No breakers: every resource is closed.")
		return nil
	}
	return printStatus(ios, out, policy.BreakerThreshold, policy.BreakerProbes, time.Now())
}

// printStatus draws the table: for an open breaker what opened it and when,
// and when it will let a probe through; for a closed one how many failures
// in a row it has seen of those that open it.
func printStatus(ios *iostreams.IOStreams, list []Status, threshold, probes int, now time.Time) error {
	cs := ios.ColorScheme()
	t := iostreams.NewTable(ios.Out, cs, "RESOURCE", "STATE", "FAILURES", "OPENED", "NEXT PROBE")
	for _, b := range list {
		failures := fmt.Sprintf("%d of %d", b.ConsecutiveFailures, threshold)
		opened, probe := "", ""
		switch b.State {
		case "open":
			failures = fmt.Sprintf("%d in a row", b.OpenedAfter)
			if !b.OpenedAt.IsZero() {
				opened = fmt.Sprintf("%s (%s ago)", b.OpenedAt.Local().Format("15:04:05"), roundSecond(now.Sub(b.OpenedAt)))
			}
			if d := b.ProbeAt.Sub(now); d > 0 {
				probe = "in " + roundSecond(d).String()
			} else if !b.ProbeAt.IsZero() {
				probe = "now"
			}
		case "half-open":
			failures = ""
			probe = fmt.Sprintf("now (at most %s)", cmdutil.Plural(probes, "probe"))
		}
		t.AddRow(output.Sanitize(b.Resource), cs.Status(b.State), failures, opened, probe)
	}
	return t.Render()
}

func roundSecond(d time.Duration) time.Duration {
	if d < 0 {
		return 0
	}
	return d.Round(time.Second)
}

// ResetOptions are the inputs of `fibe breaker reset`.
type ResetOptions struct {
	cmdutil.Seams // Client needs no API key: breakers are local state
	Resource      string
}

// NewCmdReset builds `fibe breaker reset [<resource>]`.
func NewCmdReset(f *cmdutil.Factory, runF func(context.Context, *ResetOptions) error) *cobra.Command {
	opts := &ResetOptions{Seams: f.LocalSeams()}
	return &cobra.Command{
		Use:     "reset [<resource>]",
		Short:   "Close one breaker (e.g. marquee/prod-eu), or all of them and forget the rate-limit window",
		Example: "  fibe breaker reset marquee/prod-eu\n  fibe breaker reset",
		Args:    cmdutil.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Resource = args[0]
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return resetRun(opts)
		},
	}
}

func resetRun(opts *ResetOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if err := c.ResetBreakers(opts.Resource); err != nil {
		return err
	}
	ios := opts.IO
	what := opts.Resource
	if what == "" {
		// Resetting everything also forgets the rate-limit window learned
		// for this API and key (docs/contract.md §3).
		what = "all"
		if err := c.ResetRateLedger(); err != nil {
			return err
		}
	}
	if ios.JSON() {
		return ios.PrintJSON(map[string]any{"reset": what, "rate_ledger": opts.Resource == ""})
	}
	if opts.Resource == "" {
		ios.Notice("Reset breakers: all, and the rate-limit ledger (%s).", c.StateStore())
		return nil
	}
	ios.Notice("Reset breaker: %s (%s).", what, c.StateStore())
	return nil
}
