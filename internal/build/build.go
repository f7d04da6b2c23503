// Package build holds the version stamp of the fibe binary.
//
// The release build sets these with the linker, for example:
//
//	go build -ldflags "-X github.com/fibegg/fibe/internal/build.Version=1.2.3 \
//	  -X github.com/fibegg/fibe/internal/build.Commit=abc1234 \
//	  -X github.com/fibegg/fibe/internal/build.Date=2025-01-02T03:04:05Z"
//
// Without them (`go install`, `go build`), each one that was not set is
// taken from what the Go toolchain recorded in the binary: the module
// version, and the VCS revision and commit time when it was built from a
// checkout. What is known neither way is left empty, except Version,
// which is then "dev".
package build

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version, Commit and Date are set at build time with -ldflags -X, or else
// from the build info when the binary is started.
var (
	Version = "dev"
	Commit  = "none"
	Date    = "unknown"
)

// The defaults above, which mean "not set by the linker".
const (
	unsetVersion = "dev"
	unsetCommit  = "none"
	unsetDate    = "unknown"
)

func init() {
	info, _ := debug.ReadBuildInfo()
	Version, Commit, Date = resolve(info, Version, Commit, Date)
}

// resolve fills what the linker did not set from the build info.
func resolve(info *debug.BuildInfo, version, commit, date string) (string, string, string) {
	settings := map[string]string{}
	mainVersion := ""
	if info != nil {
		for _, s := range info.Settings {
			settings[s.Key] = s.Value
		}
		mainVersion = info.Main.Version
	}
	if version == unsetVersion && mainVersion != "" && mainVersion != "(devel)" {
		version = mainVersion
	}
	if commit == unsetCommit {
		commit = settings["vcs.revision"]
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if commit != "" && settings["vcs.modified"] == "true" {
			commit += "-dirty"
		}
	}
	if date == unsetDate {
		date = settings["vcs.time"]
	}
	return version, commit, date
}

// UserAgent is the User-Agent header the CLI sends: fibe-cli/<version> (<os>/<arch>).
func UserAgent() string {
	return fmt.Sprintf("fibe-cli/%s (%s/%s)", Version, runtime.GOOS, runtime.GOARCH)
}
