// Package version implements `fibe version`.
package version

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/build"
)

// Info is the JSON form of `fibe version`.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Current describes this binary.
func Current() Info {
	return Info{Version: build.Version, Commit: build.Commit, Date: build.Date,
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
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
			_, err := fmt.Fprintf(ios.Out, "fibe %s (commit %s, built %s, %s, %s)\n", info.Version, info.Commit, info.Date, info.Go, info.Platform)
			return err
		},
	}
}
