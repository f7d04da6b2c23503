// Command mangen writes the manual page of every command (section 1) into
// a directory, man/ in the repository, with Cobra's generator
// (github.com/spf13/cobra/doc). It runs at build time (go generate, and
// the release's before-hook); the binary embeds what it wrote (package
// man) so that `fibe man` needs no generator. Its test fails when the
// committed pages differ from what it writes.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/fibegg/fibe/cmd"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
)

func main() {
	dir := flag.String("dir", "man", "the directory to write the pages into")
	flag.Parse()
	n, err := generate(cmd.NewCmdRoot(factory.New(iostreams.System(), nil)), *dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "Wrote %d manual pages to %s.\n", n, *dir)
}

// header is the header of every page. It carries no version, so the pages
// change only when the commands do; the date is the generator's (the
// SOURCE_DATE_EPOCH of a reproducible build, or today).
func header() *doc.GenManHeader {
	return &doc.GenManHeader{Title: "FIBE", Section: "1", Source: "fibe", Manual: "Fibe Manual"}
}

// generate writes the page of every available command of root into dir and
// returns how many it wrote.
func generate(root *cobra.Command, dir string) (int, error) {
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
	return n, doc.GenManTree(root, header(), dir)
}
