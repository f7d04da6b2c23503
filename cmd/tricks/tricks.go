// Package tricks implements `fibe tricks`: runs of a job playspec (job-mode
// playgrounds), which run to completion and end succeeded or failed.
package tricks

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// NewCmdTricks is the `fibe tricks` group.
func NewCmdTricks(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:     "tricks <command>",
		Aliases: []string{"trick"},
		Short:   "Run jobs: playgrounds of a job playspec that run to completion",
		Long: `Run jobs. A trick is a playground created from a job-mode playspec: its
watched services run to completion, and the trick ends succeeded or failed.
A trick is addressed by numeric id or by name.`,
	})
	cmd.AddCommand(
		NewCmdRun(f, nil),
		NewCmdList(f, nil),
		NewCmdStatus(f, nil),
		NewCmdLogs(f, nil),
		NewCmdRerun(f, nil),
		NewCmdDelete(f),
	)
	return cmd
}
