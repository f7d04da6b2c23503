// Package breaker implements `fibe breaker`: show and reset the circuit
// breakers kept in the state store (the state directory, or the shared
// store of --state-store). Neither sends a request to the API.
package breaker

import (
	"context"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
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
	Factory *cmdutil.Factory
}

// NewCmdStatus builds `fibe breaker status`.
func NewCmdStatus(f *cmdutil.Factory, runF func(context.Context, *StatusOptions) error) *cobra.Command {
	opts := &StatusOptions{Factory: f}
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

func statusRun(opts *StatusOptions) error {
	c, err := opts.Factory.ClientWithoutKey()
	if err != nil {
		return err
	}
	list, err := c.Breakers()
	if err != nil {
		return err
	}
	if list == nil {
		list = []client.BreakerStatus{}
	}
	ios := opts.Factory.IOStreams
	if ios.JSON() {
		return ios.PrintJSON(list)
	}
	ios.Notice("State store: %s", c.StateStore())
	if len(list) == 0 {
		ios.Notice("No breakers: every resource is closed.")
		return nil
	}
	cs := ios.ColorScheme()
	t := output.NewTable(ios.Out, cs, "RESOURCE", "STATE", "FAILURES", "RETRY IN")
	for _, b := range list {
		retry := ""
		if b.State == "open" && !b.OpenUntil.IsZero() {
			if d := time.Until(b.OpenUntil); d > 0 {
				retry = d.Round(time.Second).String()
			}
		}
		t.AddRow(b.Resource, cs.Status(b.State), strconv.Itoa(b.ConsecutiveFailures), retry)
	}
	return t.Render()
}

// ResetOptions are the inputs of `fibe breaker reset`.
type ResetOptions struct {
	Factory  *cmdutil.Factory
	Resource string
}

// NewCmdReset builds `fibe breaker reset [<resource>]`.
func NewCmdReset(f *cmdutil.Factory, runF func(context.Context, *ResetOptions) error) *cobra.Command {
	opts := &ResetOptions{Factory: f}
	return &cobra.Command{
		Use:     "reset [<resource>]",
		Short:   "Close one breaker (e.g. marquee/prod-eu), or all of them",
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
	c, err := opts.Factory.ClientWithoutKey()
	if err != nil {
		return err
	}
	if err := c.ResetBreakers(opts.Resource); err != nil {
		return err
	}
	ios := opts.Factory.IOStreams
	what := opts.Resource
	if what == "" {
		what = "all"
	}
	if ios.JSON() {
		return ios.PrintJSON(map[string]any{"reset": what})
	}
	ios.Notice("Reset breaker: %s (%s).", what, c.StateStore())
	return nil
}
