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
	"sync"
)

// Version, Commit and Date are set at build time with -ldflags -X; Stamp
// fills what they leave unset from the build info, on first use (reading
// the build info costs allocations no command but version needs at start).
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

// Stamp returns the version, commit and date of this binary: the linker's,
// completed from the build info.
func Stamp() (version, commit, date string) {
	s := stamp()
	return s[0], s[1], s[2]
}

var stamp = sync.OnceValue(func() [3]string {
	info, _ := debug.ReadBuildInfo()
	v, c, d := resolve(info, Version, Commit, Date)
	return [3]string{v, c, d}
})

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
