package playgrounds

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/stream"
)

// LogsOptions are the inputs of `fibe playgrounds logs`.
type LogsOptions struct {
	cmdutil.Seams
	// StreamClient is the client of --follow (see cmdutil.Factory).
	StreamClient func() (*client.Client, func(), error)
	Ref          string
	Service      string
	Tail         int
	Follow       bool
	Mutation     cmdutil.MutationFlags
	Wait         cmdutil.WaitFlags
}

// NewCmdLogs builds `fibe playgrounds logs <id|name>`.
func NewCmdLogs(f *cmdutil.Factory, runF func(context.Context, *LogsOptions) error) *cobra.Command {
	opts := &LogsOptions{Seams: f.Seams(), StreamClient: f.StreamClient}
	cmd := &cobra.Command{
		Use:   "logs <id|name> [--service S] [--tail N] [--follow]",
		Short: "Show a playground's logs",
		Long: `Show a playground's logs. Without --follow this fetches a snapshot (an
async operation). With --follow the lines stream live until Ctrl-C; with
--json each line is one JSON object (NDJSON).`,
		Example: `  fibe pg logs preview-42 --service web --tail 100
  fibe pg logs preview-42 --follow`,
		Args:              cmdutil.ExactArgs(1, "<id|name>"),
		ValidArgsFunction: cmdutil.CompletePlaygroundNames(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if opts.Tail < 0 {
				return output.FlagErrorf("--tail must be 0 or more")
			}
			if opts.Follow && opts.Wait.NoWait {
				return output.FlagErrorf("--follow and --no-wait cannot be used together")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return logsRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Service, "service", "s", "", "Only this service")
	cmd.Flags().IntVarP(&opts.Tail, "tail", "n", 0, "Number of recent lines (default: the server's)")
	cmd.Flags().BoolVarP(&opts.Follow, "follow", "F", false, "Stream new lines until interrupted")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

func logsRun(ctx context.Context, opts *LogsOptions) error {
	if opts.Follow {
		c, stop, err := opts.StreamClient()
		if err != nil {
			return err
		}
		defer stop()
		if err := checkService(ctx, c, opts); err != nil {
			return err
		}
		return followRun(ctx, c, opts)
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	mo, err := opts.Mutation.Options()
	if err != nil {
		return err
	}
	wo, err := opts.WaitOptions(&opts.Wait)
	if err != nil {
		return err
	}
	stop := opts.Progress("Fetching logs of "+opts.Ref, wo)
	lines, resp, err := c.Playgrounds.Logs(ctx, opts.Ref, opts.Service, opts.Tail, mo, wo)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	if accepted, err := opts.Accepted(resp, lines == nil && opts.Wait.NoWait); accepted {
		return err
	}
	opts.ReplayNotice(resp)
	if lines == nil {
		lines = []string{}
	}
	if opts.IO.JSON() {
		return opts.IO.PrintJSON(map[string]any{"lines": lines})
	}
	return printLines(opts.IO.Out, output.LogLines(opts.IO, lines))
}

// checkService refuses a --service the playground does not have before a
// stream starts, with the answer the snapshot path gets from the server
// (VALIDATION_FAILED naming the services), so that the same input gets
// the same answer with or without --follow.
func checkService(ctx context.Context, c *client.Client, opts *LogsOptions) error {
	if opts.Service == "" {
		return nil
	}
	p, _, err := c.Playgrounds.Get(ctx, opts.Ref)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(p.Services))
	for _, s := range p.Services {
		if s.Name == opts.Service {
			return nil
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return nil // services not known yet: let the stream decide
	}
	reason := "is not a service of this playground (" + strings.Join(names, ", ") + ")"
	return &client.Error{Code: client.CodeValidation, Message: "service " + reason,
		Details: map[string]any{"service": []any{reason}}}
}

func followRun(ctx context.Context, c *client.Client, opts *LogsOptions) error {
	ios := opts.IO
	cs := ios.ColorScheme()
	fo := stream.FollowOptions{Service: opts.Service, Tail: opts.Tail}
	width := 6 // widest service name so far, so the prefixes line up
	err := stream.Follow(ctx, c, opts.Ref, fo, func(l stream.LogLine) error {
		if ios.JSON() {
			return ios.PrintJSONLine(l)
		}
		var err error
		if opts.Service == "" && l.Service != "" {
			service := output.Sanitize(l.Service)
			width = max(width, len(service))
			_, err = fmt.Fprintf(ios.Out, "%s %s\n", cs.Cyan(fmt.Sprintf("%-*s |", width, service)), output.LogLines(ios, []string{l.Line})[0])
		} else {
			_, err = fmt.Fprintln(ios.Out, output.LogLines(ios, []string{l.Line})[0])
		}
		return err
	})
	if client.IsCancelled(err) {
		// Ctrl-C is how a followed stream ends: exit 130, no error line.
		return &output.StoppedError{Err: err}
	}
	return err
}
