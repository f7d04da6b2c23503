//go:build !unix

package playgrounds

import (
	"context"
	"os"

	"github.com/fibegg/fibe/internal/stream"
)

// watchWindowSize: without SIGWINCH the size is sent once, at the start.
func watchWindowSize(context.Context, *os.File, chan<- stream.Input) (stop func()) { return func() {} }
