package playgrounds

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// DebugOptions are the inputs of `fibe playgrounds debug`.
type DebugOptions struct {
	cmdutil.Seams
	Ref      string
	Mode     string
	Service  string
	LogsTail int
	Refresh  bool
	Wait     cmdutil.WaitFlags
}

// NewCmdDebug builds `fibe playgrounds debug <id|name>`.
func NewCmdDebug(f *cmdutil.Factory, runF func(context.Context, *DebugOptions) error) *cobra.Command {
	opts := &DebugOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "debug <id|name> [--mode summary|full] [--service S] [--logs-tail N] [--refresh]",
		Short: "Show a playground's diagnostics",
		Long: `Show a playground's diagnostics: its startup state, exit code, missing
artifacts and the last log lines. --mode full adds each service's log tail
and the failure detail. --refresh asks the marquee for live diagnostics (an
async operation, waited on unless --no-wait). --json prints the whole report.`,
		Example: `  fibe pg debug preview-42
  fibe pg debug preview-42 --mode full --service web --logs-tail 50 --refresh`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Mode != "" && !slices.Contains(client.DebugModes, opts.Mode) {
				return output.FlagErrorf("--mode must be %s, not %q", strings.Join(client.DebugModes, " or "), opts.Mode)
			}
			if opts.LogsTail < 0 {
				return output.FlagErrorf("--logs-tail must be 0 or more")
			}
			if opts.Wait.NoWait && !opts.Refresh {
				return output.FlagErrorf("--no-wait needs --refresh (only a refresh is an operation)")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return debugRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Mode, "mode", "", "summary or full (default: summary)")
	cmd.Flags().StringVarP(&opts.Service, "service", "s", "", "Only this service")
	cmd.Flags().IntVarP(&opts.LogsTail, "logs-tail", "n", 0, "Log lines to include (default: the server's)")
	cmd.Flags().BoolVar(&opts.Refresh, "refresh", false, "Ask the marquee for live diagnostics (async)")
	f.CompleteFlag(cmd, "mode", cobra.FixedCompletions(client.DebugModes, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func debugRun(ctx context.Context, opts *DebugOptions) error {
	var wo client.WaitOptions
	if opts.Refresh {
		var err error
		if wo, err = opts.WaitOptions(&opts.Wait); err != nil {
			return err
		}
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	do := client.DebugOptions{Mode: opts.Mode, Service: opts.Service, LogsTail: opts.LogsTail, Refresh: opts.Refresh}
	stop := func(error) {}
	if opts.Refresh {
		stop = opts.Progress("Refreshing the diagnostics of "+opts.Ref, wo)
	}
	report, resp, err := c.Playgrounds.Debug(ctx, opts.Ref, do, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	return opts.Finish(resp, report, report == nil, func() error { return PrintDebug(opts.IO, report) })
}

// debugView is the part of a diagnostics report people read.
type debugView struct {
	Playground struct {
		ID     int64  `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"playground"`
	Startup *struct {
		State            string   `json:"state"`
		ExitCode         *int     `json:"exit_code"`
		Available        *bool    `json:"available"`
		MissingArtifacts []string `json:"missing_artifacts"`
		LogTail          []string `json:"log_tail"`
	} `json:"startup"`
}

// PrintDebug prints the report's playground and startup as a card and
// the log tail below it.
func PrintDebug(ios *iostreams.IOStreams, report map[string]any) error {
	var v debugView
	data, err := json.Marshal(report)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("the diagnostics report has an unexpected shape (see --json): %v", err)
	}
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	d.Add("Playground", output.Sanitize(v.Playground.Name))
	d.Add("Status", cs.Status(output.Sanitize(v.Playground.Status)))
	var tail []string
	if st := v.Startup; st != nil {
		d.Add("Startup", cs.Status(output.Sanitize(st.State)))
		if st.ExitCode != nil {
			d.Add("Exit code", fmt.Sprint(*st.ExitCode))
		}
		if st.Available != nil {
			d.Add("Available", map[bool]string{true: "yes", false: "no"}[*st.Available])
		}
		if len(st.MissingArtifacts) > 0 {
			d.Add("Missing", strings.Join(output.SanitizeAll(st.MissingArtifacts...), ", "))
		}
		tail = st.LogTail
	}
	if err := d.Render(); err != nil {
		return err
	}
	if len(tail) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(ios.Out, "\nLast log lines:"); err != nil {
		return err
	}
	for _, l := range output.LogLines(ios, tail) {
		if _, err := fmt.Fprintln(ios.Out, "  "+l); err != nil {
			return err
		}
	}
	return nil
}
