package agents

import (
	"context"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// RuntimeStatusOptions are the inputs of `fibe agents runtime-status`.
type RuntimeStatusOptions struct {
	cmdutil.Seams
	Ref string
}

// NewCmdRuntimeStatus builds `fibe agents runtime-status <id|name>`.
func NewCmdRuntimeStatus(f *cmdutil.Factory, runF func(context.Context, *RuntimeStatusOptions) error) *cobra.Command {
	opts := &RuntimeStatusOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:     "runtime-status <id|name>",
		Aliases: []string{"status"},
		Short:   "Show where an agent's chat runtime is",
		Long: `Show an agent's chat runtime: its status (stopped until a chat runs),
whether it is reachable and authenticated, whether it is working and how
many messages wait.`,
		Example: `  fibe agents runtime-status reviewer`,
		Args:    cmdutil.ExactArgs(1, "<id|name>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ref = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return runtimeStatusRun(cmd.Context(), opts)
		},
	}
	return cmd
}

func runtimeStatusRun(ctx context.Context, opts *RuntimeStatusOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	st, resp, err := c.Agents.RuntimeStatus(ctx, opts.Ref)
	if err != nil {
		return err
	}
	return opts.Finish(resp, st, false, func() error { return printRuntimeStatus(opts.IO, st) })
}

func printRuntimeStatus(ios *iostreams.IOStreams, st *client.AgentRuntimeStatus) error {
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	d.Add("Agent", strconv.FormatInt(st.ID, 10))
	d.Add("Status", cs.Status(output.Sanitize(st.Status)))
	d.Add("Reachable", yes(st.RuntimeReachable))
	d.Add("Authenticated", yes(st.Authenticated))
	d.Add("Processing", yes(st.IsProcessing))
	d.Add("Queued", strconv.Itoa(st.QueueCount))
	if st.ChatURL != nil {
		d.Add("Chat URL", output.Sanitize(*st.ChatURL))
	}
	d.Add("Compose project", output.Sanitize(st.ComposeProject))
	if st.LastError != nil {
		d.Add("Last error", output.Sanitize(*st.LastError))
	}
	return d.Render()
}
