// Package man implements `fibe man`: the manual pages of every command,
// written by Cobra's own generator (github.com/spf13/cobra/doc) into a
// directory, man/ in the repository. The release archives and the .deb and
// .rpm packages carry that directory (see .goreleaser.yaml); a test keeps
// it in step with the command tree, as it does completions/.
package man

import (
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Options are the inputs of `fibe man`.
type Options struct {
	IO *iostreams.IOStreams
	// Root is the command tree the pages describe.
	Root *cobra.Command
	// Dir receives one page per command (fibe.1, fibe-playgrounds-list.1, ...).
	Dir string
	// ReferencePath, when set, receives the Markdown command reference
	// instead (docs/commands.md).
	ReferencePath string
}

// NewCmdMan builds `fibe man`.
func NewCmdMan(f *cmdutil.Factory) *cobra.Command {
	opts := &Options{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "man [--dir DIR]",
		Short: "Write the manual pages of every command",
		Long: `Write one manual page (section 1) per command into a directory, man/ by
default. Read one with man, or install them under a MANPATH directory:

  fibe man --dir ~/.local/share/man/man1 && man fibe-playgrounds-create`,
		Example: `  fibe man
  fibe man --dir /tmp/fibe-man && man -l /tmp/fibe-man/fibe.1`,
		Args:        cmdutil.NoArgs,
		Annotations: map[string]string{cmdutil.SkipConfigCheck: "true", cmdutil.NoDocument: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Root = cmd.Root()
			return run(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "dir", "man", "Directory to write the pages into")
	cmd.Flags().StringVar(&opts.ReferencePath, "reference", "", "Write the command reference in Markdown to this file instead")
	return cmd
}

func run(opts *Options) error {
	if opts.IO.JSON() {
		return output.FlagErrorf("fibe man writes manual pages: --json, --output and --jq do not apply")
	}
	if opts.ReferencePath != "" {
		if err := writeReference(opts.Root, opts.ReferencePath); err != nil {
			return err
		}
		opts.IO.Notice("Wrote the command reference to %s.", opts.ReferencePath)
		return nil
	}
	if opts.Dir == "" {
		return output.FlagErrorf("--dir must not be empty")
	}
	n, err := Generate(opts.Root, opts.Dir)
	if err != nil {
		return err
	}
	opts.IO.Notice("Wrote %d manual pages to %s.", n, opts.Dir)
	return nil
}

// Header is the header of every page. It carries no version, so the pages
// change only when the commands do; the date is the generator's (the
// SOURCE_DATE_EPOCH of a reproducible build, or today).
func Header() *doc.GenManHeader {
	return &doc.GenManHeader{Title: "FIBE", Section: "1", Source: "fibe", Manual: "Fibe Manual"}
}

// Generate writes the page of every available command of root into dir and
// returns how many it wrote.
func Generate(root *cobra.Command, dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	var mark func(c *cobra.Command)
	mark = func(c *cobra.Command) {
		// No "Auto generated" footer with a date of its own.
		c.DisableAutoGenTag = true
		n++
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() && !s.IsAdditionalHelpTopicCommand() {
				mark(s)
			}
		}
	}
	mark(root)
	return n, doc.GenManTree(root, Header(), dir)
}
