package factory

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/httpserve"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// localConfig is the emulator behind `--api-url local`. Its state lives in a
// file so that successive invocations see one world. The local_* settings
// (FIBE_LOCAL_SPEED, a factor such as 10; FIBE_LOCAL_CHAOS, a chaos spec or
// profile; FIBE_LOCAL_SEED; FIBE_LOCAL_ASYNC_CREATE, 1: creation answers
// 202) tune it; they are read through the settings table.
func localConfig() (localapi.Config, error) {
	path, err := localapi.DefaultStatePath()
	if err != nil {
		return localapi.Config{}, err
	}
	cfg := localapi.Config{StatePath: path}
	for key, set := range map[string]func(v any){
		"local_speed":        func(v any) { cfg.Speed = v.(float64) },
		"local_seed":         func(v any) { cfg.Seed = int64(v.(int)) },
		"local_chaos":        func(v any) { cfg.Chaos = v.(string) },
		"local_async_create": func(v any) { cfg.AsyncCreate = v.(bool) },
	} {
		v, err := config.FromEnv(key)
		if err != nil {
			return cfg, output.FlagErrorWrap(err)
		}
		set(v)
	}
	return cfg, nil
}

// localTransport is the in-process emulator behind `--api-url local`:
// requests never leave the process. It accepts apiKey, whatever it is: the
// emulator is the user's own sandbox with nobody to authenticate against,
// and a FIBE_API_KEY exported for the real API must not lock the user out
// of it (keys are only ever stored there hashed). `fibe local serve` is the
// way to test authentication failures.
func localTransport(apiKey string) (http.RoundTripper, error) {
	cfg, err := localConfig()
	if err != nil {
		return nil, err
	}
	cfg.APIKey = apiKey
	rt, err := localapi.NewTransport(cfg)
	if err != nil {
		return nil, fmt.Errorf("local API: %w", err)
	}
	return rt, nil
}

// localStreamClient serves the local emulator (same state file) on an
// ephemeral loopback port for the life of one command and returns a client
// that talks to it over real sockets. Live log streams need this: a
// websocket cannot ride an in-process RoundTripper. stop shuts it down.
func (w *wiring) localStreamClient() (c *client.Client, stop func(), err error) {
	cfg, err := w.config()
	if err != nil {
		return nil, nil, err
	}
	key, _, err := w.apiKey()
	if err != nil {
		return nil, nil, err
	}
	return w.loopbackClient(cfg, key, nil, nil)
}

// streamClient is the usual client, or with --api-url local the emulator
// served on loopback for the length of the stream.
func (w *wiring) streamClient() (c *client.Client, stop func(), err error) {
	cfg, err := w.config()
	if err != nil {
		return nil, nil, err
	}
	if cfg.Local() {
		return w.localStreamClient()
	}
	c, err = w.client(true)
	return c, func() {}, err
}

// serverClient is the client of a long-running command that serves others
// (fibe console): the client Client would build, with adjust applied to
// its options (its own progress callback, say). With --api-url local the
// emulator (same state file) is served on an ephemeral loopback port for
// the life of the command, as for localStreamClient, so that streams ride
// real sockets; wrap, when set, wraps its handler. stop releases it.
func (w *wiring) serverClient(adjust func(*client.Options), wrap func(http.Handler) http.Handler) (c *client.Client, stop func(), err error) {
	cfg, err := w.config()
	if err != nil {
		return nil, nil, err
	}
	key, _, err := w.apiKey()
	if err != nil {
		return nil, nil, err
	}
	if !cfg.Local() {
		if key == "" {
			_, err := w.client(true) // the error every command gives without a key
			return nil, nil, err
		}
		c, err := w.buildClient(cfg, key, adjust)
		if err != nil {
			return nil, nil, err
		}
		return c, func() {}, nil
	}
	return w.loopbackClient(cfg, key, adjust, wrap)
}

// loopbackClient serves the local emulator (same state file) on an
// ephemeral loopback port, its handler wrapped by wrap when set, and
// returns a client of it with adjust applied to its options. stop shuts
// the server down, releasing requests held by injected faults first.
func (w *wiring) loopbackClient(cfg *config.Config, key string, adjust func(*client.Options), wrap func(http.Handler) http.Handler) (c *client.Client, stop func(), err error) {
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
	errOut := w.f.IOStreams.ErrOut
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(errOut, "local API: %v\n", err)
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
	c, err = w.buildClient(cfg, key, func(o *client.Options) {
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

// callClients returns a function building one client per call, so each
// call has its own progress sink, while every call shares one HTTP
// transport (its connections) and, with --api-url local, one in-process
// emulator. The configuration and the key are resolved once, now.
// requireKey false builds a client for local-state commands (breakers)
// even without a key.
func (w *wiring) callClients() (func(onEvent func(client.Event), requireKey bool) (*client.Client, error), error) {
	key, _, err := w.apiKey()
	if err != nil {
		return nil, err
	}
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	shared := *cfg
	rt := w.f.Transport
	switch {
	case cfg.Local():
		if rt, err = localTransport(key); err != nil {
			return nil, err
		}
		shared.APIURL = cmdutil.LocalBaseURL // the transport answers it in process
	case rt == nil:
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return func(onEvent func(client.Event), requireKey bool) (*client.Client, error) {
		if key == "" && requireKey {
			return nil, &output.AuthRequiredError{APIURL: cfg.APIURL, Profile: cfg.Profile}
		}
		return w.buildClient(&shared, key, func(o *client.Options) {
			o.Transport = rt
			o.OnEvent = onEvent
		})
	}, nil
}
