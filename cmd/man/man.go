// Package man implements `fibe man`: it writes the manual pages of every
// command into a directory. The pages are written at build time by Cobra's
// own generator (github.com/spf13/cobra/doc, run by cmd/man/mangen through
// go generate) into man/ in the repository, and embedded in the binary
// from there (package man at the root): the generator, and the Markdown
// library it links, would otherwise be initialised by every start of every
// command. The release archives and the .deb and .rpm packages carry that
// directory (see .goreleaser.yaml); a test keeps it in step with the
// command tree, as it does completions/.
package man

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	manpages "github.com/fibegg/fibe/man"
)

// Options are the inputs of `fibe man`.
type Options struct {
	IO *iostreams.IOStreams
	// Root is the command tree the reference describes.
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
	n, err := writePages(manpages.Pages, opts.Dir)
	if err != nil {
		return err
	}
	opts.IO.Notice("Wrote %d manual pages to %s.", n, opts.Dir)
	return nil
}

// writePages copies every page of pages (the embedded man/*.1) into dir
// and returns how many it wrote.
func writePages(pages fs.FS, dir string) (int, error) {
	names, err := fs.Glob(pages, "*.1")
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	for _, name := range names {
		page, err := fs.ReadFile(pages, name)
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), page, 0o644); err != nil {
			return 0, err
		}
	}
	return len(names), nil
}
