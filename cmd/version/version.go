// Package version implements `fibe version`.
package version

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/build"
)

// Info is the JSON form of `fibe version`.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Date     string `json:"date,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Current describes this binary.
func Current() Info {
	version, commit, date := build.Stamp()
	return Info{Version: version, Commit: commit, Date: date,
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
}

// Line is "fibe 1.2.3 (commit abc1234, built 2025-01-02T03:04:05Z,
// go1.26.0, linux/amd64)", leaving out the commit and date when unknown.
func (i Info) Line() string {
	var parts []string
	if i.Commit != "" {
		parts = append(parts, "commit "+i.Commit)
	}
	if i.Date != "" {
		parts = append(parts, "built "+i.Date)
	}
	parts = append(parts, i.Go, i.Platform)
	return fmt.Sprintf("fibe %s (%s)", i.Version, strings.Join(parts, ", "))
}

// NewCmdVersion builds `fibe version`.
func NewCmdVersion(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date",
		Example: `  fibe version
  fibe version --json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := Current()
			ios := f.IOStreams
			if ios.JSON() {
				return ios.PrintJSON(info)
			}
			_, err := fmt.Fprintln(ios.Out, info.Line())
			return err
		},
	}
}
