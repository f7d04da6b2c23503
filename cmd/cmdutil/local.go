package cmdutil

import (
	"fmt"
	"net/http"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
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

// LocalTransport is the in-process emulator behind `--api-url local`:
// requests never leave the process. It accepts apiKey, whatever it is: the
// emulator is the user's own sandbox with nobody to authenticate against,
// and a FIBE_API_KEY exported for the real API must not lock the user out
// of it (keys are only ever stored there hashed). `fibe local serve` is the
// way to test authentication failures.
func LocalTransport(apiKey string) (http.RoundTripper, error) {
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

// LocalStreamClient serves the local emulator (same state file) on an
// ephemeral loopback port for the life of one command and returns a client
// that talks to it over real sockets. Live log streams need this: a
// websocket cannot ride an in-process RoundTripper. stop shuts it down.
func (f *Factory) LocalStreamClient() (c *client.Client, stop func(), err error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, err
	}
	key, _, err := f.APIKey()
	if err != nil {
		return nil, nil, err
	}
	return f.loopbackClient(cfg, key, nil, nil)
}

// StreamClient is the client of a command that holds a live stream (logs
// --follow, a shell): the usual client, or with --api-url local the
// emulator served on loopback for the length of the stream, since the
// in-process API has no socket to stream over. stop releases it.
func (f *Factory) StreamClient() (c *client.Client, stop func(), err error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, nil, err
	}
	if cfg.Local() {
		return f.LocalStreamClient()
	}
	c, err = f.Client()
	return c, func() {}, err
}
