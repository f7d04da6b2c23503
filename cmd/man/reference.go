package man

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Reference is the command reference in Markdown (docs/commands.md): every
// available command, its usage, flags and examples, in the order of the
// tree. It says what the command tree says and nothing else, so a test
// can hold the committed file to the tree.
func Reference(root *cobra.Command) []byte {
	var b bytes.Buffer
	b.WriteString("# Command reference\n\n")
	b.WriteString("Generated from the command tree by `fibe man --reference docs/commands.md`;\n")
	b.WriteString("a test fails when it is stale. Global flags are listed once, at the end.\n")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c != root {
			fmt.Fprintf(&b, "\n## %s\n\n%s\n", c.CommandPath(), c.Short)
			if c.Runnable() {
				fmt.Fprintf(&b, "\n```\n%s\n```\n", c.UseLine())
			}
			if len(c.Aliases) > 0 {
				fmt.Fprintf(&b, "\nAliases: %s\n", strings.Join(c.Aliases, ", "))
			}
			if flags := ownFlags(c); flags != "" {
				fmt.Fprintf(&b, "\nFlags:\n\n```\n%s```\n", flags)
			}
			if c.Example != "" {
				fmt.Fprintf(&b, "\nExamples:\n\n```\n%s\n```\n", c.Example)
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() && !s.IsAdditionalHelpTopicCommand() {
				walk(s)
			}
		}
	}
	walk(root)
	fmt.Fprintf(&b, "\n## Global flags\n\n```\n%s```\n", root.PersistentFlags().FlagUsages())
	return b.Bytes()
}

// writeReference writes Reference to path.
func writeReference(root *cobra.Command, path string) error {
	return os.WriteFile(path, Reference(root), 0o644)
}

// ownFlags are the usages of the flags of c itself, without --help, which
// cobra adds to a command only when it runs.
func ownFlags(c *cobra.Command) string {
	fs := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	c.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			fs.AddFlag(f)
		}
	})
	return fs.FlagUsages()
}
