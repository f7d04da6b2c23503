// Package templates implements `fibe templates` (alias `tpl`): import
// templates, their versions and categories, and launching one. The
// generic verbs come from the resource's description; the versions, the
// publication, forks, categories and launches are this package's.
package templates

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// NewCmdTemplates is the `fibe templates` group.
func NewCmdTemplates(f *cmdutil.Factory) *cobra.Command {
	cmd := cmdutil.NewCmdResource(f, resource.Templates())
	for _, sub := range cmd.Commands() {
		if ex, ok := examples[sub.Name()]; ok {
			sub.Example = ex
		}
	}
	cmd.AddCommand(
		NewCmdVersions(f),
		NewCmdPublish(f, true, nil),
		NewCmdPublish(f, false, nil),
		NewCmdFork(f, nil),
		NewCmdCategories(f, nil),
		NewCmdLaunch(f, nil),
	)
	return cmd
}

// examples are those of the generic verbs that the description leaves
// without one.
var examples = map[string]string{
	"create": `  fibe templates create --name shop --body docker-compose.yml --category 1
  cat compose.yml | fibe templates create --name shop --body - --description "A shop"`,
	"update": `  fibe templates update shop --name shop-v2
  fibe templates update 17 --category 2 --json`,
	"delete": `  fibe templates delete shop --yes`,
}

// versionID reads a version id argument: a positive integer.
func versionID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return 0, output.FlagErrorf("invalid version id %q: want a positive integer (fibe templates versions list TEMPLATE shows them)", arg)
	}
	return id, nil
}

// done prints a line of success for people.
func done(ios *iostreams.IOStreams, format string, args ...any) error {
	_, err := fmt.Fprintf(ios.Out, "%s %s\n", iostreams.Check(ios.ColorScheme()), fmt.Sprintf(format, args...))
	return err
}
