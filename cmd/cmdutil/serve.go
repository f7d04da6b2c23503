package cmdutil

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// ServeUntilDone serves hs on ln for a long-running command (local serve,
// mcp serve --http) until ctx ends (Ctrl-C), then shuts it down, giving
// requests in flight up to 5 s. announce runs once the server is
// listening, to print where it is.
func ServeUntilDone(ctx context.Context, hs *http.Server, ln net.Listener, announce func() error) error {
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	if err := announce(); err != nil {
		_ = hs.Close()
		return err
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
