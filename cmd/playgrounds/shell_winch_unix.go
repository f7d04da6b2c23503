//go:build unix

package playgrounds

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"

	"github.com/fibegg/fibe/internal/stream"
)

// watchWindowSize sends the terminal's size on every SIGWINCH.
func watchWindowSize(ctx context.Context, out *os.File, input chan<- stream.Input) (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-ch:
			}
			cols, rows, err := term.GetSize(int(out.Fd()))
			if err != nil || cols <= 0 || rows <= 0 {
				continue
			}
			select {
			case input <- stream.Input{Cols: cols, Rows: rows}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { signal.Stop(ch) }
}
