// Package build holds the version stamp of the fibe binary.
//
// The release build sets these with the linker, for example:
//
//	go build -ldflags "-X github.com/fibegg/fibe/internal/build.Version=1.2.3 \
//	  -X github.com/fibegg/fibe/internal/build.Commit=abc1234 \
//	  -X github.com/fibegg/fibe/internal/build.Date=2025-01-02T03:04:05Z"
//
// A plain `go build` leaves the defaults below.
package build

import (
	"fmt"
	"runtime"
)

// Version, Commit and Date are set at build time with -ldflags -X.
var (
	Version = "dev"
	Commit  = "none"
	Date    = "unknown"
)

// UserAgent is the User-Agent header the CLI sends: fibe-cli/<version> (<os>/<arch>).
func UserAgent() string {
	return fmt.Sprintf("fibe-cli/%s (%s/%s)", Version, runtime.GOOS, runtime.GOARCH)
}
