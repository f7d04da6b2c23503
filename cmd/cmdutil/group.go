package cmdutil

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/output"
)

// Group makes cmd a command that only holds subcommands: without arguments
// it prints its help, and an unknown subcommand is a usage error (cobra
// would otherwise print help and exit 0) that suggests the subcommands it
// is close to, as cobra does at the root (`pg lst`: did you mean "list"?).
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			if cmd.SuggestionsMinimumDistance <= 0 {
				cmd.SuggestionsMinimumDistance = 2 // cobra's default at the root
			}
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				return output.FlagErrorf("unknown command %q for %q; did you mean %s?", args[0], cmd.CommandPath(), quoteOr(s))
			}
			return output.FlagErrorf("unknown command %q for %q (see %s --help)", args[0], cmd.CommandPath(), cmd.CommandPath())
		}
		return cmd.Help()
	}
	return cmd
}

// quoteOr is `"a"`, `"a" or "b"`, `"a", "b" or "c"`.
func quoteOr(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
