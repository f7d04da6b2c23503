package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// unlimited is a rate limit no scenario reaches: only the pacing scenario
// measures rate limiting, the others would otherwise measure it by accident
// (the emulator's default, 600 a minute per key, is shared by every client).
const unlimited = 1 << 30

// emulator is one local API server on 127.0.0.1 with a recorder in front.
// Each client kind in a scenario gets its own, so their loads never mix.
type emulator struct {
	API *localapi.Server
	Rec *recorder
	URL string
	Key string
	srv *httptest.Server
}

func startEmulator(cfg localapi.Config) (*emulator, error) {
	api, err := localapi.New(cfg)
	if err != nil {
		return nil, err
	}
	rec := newRecorder(api.Handler())
	srv := httptest.NewUnstartedServer(rec)
	// Hundreds of clients each keep a connection; keep-alives stay on, as
	// a real server would have them.
	srv.Start()
	key := cfg.APIKey
	if key == "" {
		key = localapi.DefaultAPIKey
	}
	return &emulator{API: api, Rec: rec, URL: srv.URL, Key: key, srv: srv}, nil
}

// Close stops the server. Handlers still hanging on an injected fault are
// cut off rather than waited for.
func (e *emulator) Close() {
	e.srv.CloseClientConnections()
	e.srv.Close()
}

// setup sends one request that prepares data before the measured run, with
// no faults active. Its answer must be 2xx.
func (e *emulator) setup(ctx context.Context, method, path string, body any, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	req, err := newJSONRequest(ctx, method, e.URL+path, payload)
	if err != nil {
		return err
	}
	setAPIHeaders(req.Header, e.Key, payload != nil)
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("setup %s %s: HTTP %d", method, path, resp.StatusCode)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

func newJSONRequest(ctx context.Context, method, url string, payload []byte) (*http.Request, error) {
	if payload == nil {
		return http.NewRequestWithContext(ctx, method, url, nil)
	}
	return http.NewRequestWithContext(ctx, method, url, bytes.NewReader(payload))
}

// createPlayground seeds one playground on marquee (playspec web) before a
// run starts, with no faults active.
func (e *emulator) createPlayground(ctx context.Context, name, marquee string) error {
	body := map[string]any{"playground": map[string]any{"name": name, "playspec_id": "web", "marquee_id": marquee}}
	return e.setup(ctx, http.MethodPost, "/api/playgrounds", body, nil)
}
