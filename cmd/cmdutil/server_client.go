package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/httpserve"
	"github.com/fibegg/fibe/internal/localapi"
)

// ServerClient returns the API client of a long-running command that
// serves others (fibe console): the client Client would build, with adjust
// applied to its options (its own progress callback, say). With
// --api-url local the emulator (same state file) is served on an
// ephemeral loopback port for the life of the command, as for
// LocalStreamClient, so that streams ride real sockets; wrap, when set,
// wraps its handler. stop releases it.
func (f *Factory) ServerClient(adjust func(*client.Options), wrap func(http.Handler) http.Handler) (c *client.Client, stop func(), err error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, err
	}
	key, _, err := f.APIKey()
	if err != nil {
		return nil, nil, err
	}
	if !cfg.Local() {
		if key == "" {
			_, err := f.Client() // the error every command gives without a key
			return nil, nil, err
		}
		c, err := f.buildClient(cfg, key, adjust)
		if err != nil {
			return nil, nil, err
		}
		return c, func() {}, nil
	}
	return f.loopbackClient(cfg, key, adjust, wrap)
}

// loopbackClient serves the local emulator (same state file) on an
// ephemeral loopback port, its handler wrapped by wrap when set, and
// returns a client of it with adjust applied to its options. stop shuts
// the server down, releasing requests held by injected faults first.
func (f *Factory) loopbackClient(cfg *config.Config, key string, adjust func(*client.Options), wrap func(http.Handler) http.Handler) (c *client.Client, stop func(), err error) {
	lcfg, err := localConfig()
	if err != nil {
		return nil, nil, err
	}
	lcfg.APIKey = key
	srv, err := localapi.New(lcfg)
	if err != nil {
		return nil, nil, fmt.Errorf("local API: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close()
		return nil, nil, fmt.Errorf("local API: %w", err)
	}
	var h http.Handler = srv.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	// Connections that never sent a request are closed at stop: Shutdown
	// would wait 5 seconds for each before counting it idle.
	var unused httpserve.UnusedConns
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ConnState: unused.Track}
	hs.RegisterOnShutdown(srv.Close)
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(f.IOStreams.ErrOut, "local API: %v\n", err)
		}
	}()
	stop = func() {
		srv.Close() // releases requests held by injected faults
		unused.CloseAll()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if hs.Shutdown(ctx) != nil {
			_ = hs.Close()
		}
	}
	c, err = f.buildClient(cfg, key, func(o *client.Options) {
		o.BaseURL, o.Transport = "http://"+ln.Addr().String(), nil
		if adjust != nil {
			adjust(o)
		}
	})
	if err != nil {
		stop()
		return nil, nil, err
	}
	return c, stop, nil
}
