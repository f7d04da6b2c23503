// Package configcmd implements `fibe config`: read and write the settings
// of config.yaml, per profile, and show where each effective value comes
// from (flag, environment, profile, file or default).
package configcmd

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
)

// NewCmdConfig is the `fibe config` group.
func NewCmdConfig(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.Group(&cobra.Command{
		Use:   "config <command>",
		Short: "Read and write settings",
		Long: `Read and write settings in $XDG_CONFIG_HOME/fibe/config.yaml.

Precedence: flag, then environment, then the active profile's section of
the file (profiles.<name>), then the file's top level, then the default.
With --profile NAME (or FIBE_PROFILE), set writes into that profile.
list shows every setting, with where its value comes from; secrets (the
API key, the MCP token, a state store's password) are masked.`,
	})
	cmd.AddCommand(NewCmdGet(f, nil), NewCmdSet(f, nil), NewCmdList(f, nil))
	return cmd
}

func completeKeys(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return keyCompletions(args, false)
}

// completeFileKeys completes only the keys config.yaml can hold.
func completeFileKeys(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return keyCompletions(args, true)
}

func keyCompletions(args []string, fileOnly bool) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, s := range config.Settings {
		if s.File || !fileOnly {
			out = append(out, s.Key+"\t"+s.Help)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
