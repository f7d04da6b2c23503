package cmdutil

import (
	"net/http"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// CallClients is for a long-running server (`fibe mcp serve`): it returns a
// function building one client per call, so each call has its own progress
// sink, while every call shares one HTTP transport (its connections) and,
// with --api-url local, one in-process emulator. The configuration and the
// key are resolved once, now. requireKey false builds a client for
// local-state commands (breakers) even without a key.
func (f *Factory) CallClients() (func(onEvent func(client.Event), requireKey bool) (*client.Client, error), error) {
	key, _, err := f.APIKey()
	if err != nil {
		return nil, err
	}
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	shared := *cfg
	rt := f.Transport
	switch {
	case cfg.Local():
		if rt, err = LocalTransport(key); err != nil {
			return nil, err
		}
		shared.APIURL = LocalBaseURL // the transport answers it in process
	case rt == nil:
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return func(onEvent func(client.Event), requireKey bool) (*client.Client, error) {
		if key == "" && requireKey {
			return nil, &output.AuthRequiredError{APIURL: cfg.APIURL, Profile: cfg.Profile}
		}
		return f.buildClient(&shared, key, func(o *client.Options) {
			o.Transport = rt
			o.OnEvent = onEvent
		})
	}, nil
}
