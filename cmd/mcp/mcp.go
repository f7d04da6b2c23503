// Package mcp implements `fibe mcp`: the Model Context Protocol server
// that gives agents the same contract as the CLI (docs/mcp-tools.md), and
// the commands that add it to an MCP client's configuration.
package mcp

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
)

// NewCmdMCP is the `fibe mcp` group.
func NewCmdMCP(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "mcp <command>",
		Short: "Serve fibe's tools to agents over the Model Context Protocol",
		Long: `Serve fibe's tools to agents (Claude, Cursor, VS Code, Codex, any MCP
client) over the Model Context Protocol. Every tool call follows the same
reliability contract as a command: one idempotency key, classified
retries, waiting on async operations, the circuit breaker, typed errors.`,
	})
	cmd.AddCommand(NewCmdServe(f, nil), NewCmdInstall(f, nil), NewCmdUninstall(f, nil))
	return cmd
}
