package main

import (
	"context"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
)

// fibeClient is the project's client behind the scenarios' interface.
type fibeClient struct {
	C    *client.Client
	Wait client.WaitOptions
}

func newFibeClient(baseURL, apiKey, stateDir string, pol reliability.Policy) (*fibeClient, error) {
	c, err := client.New(client.Options{
		BaseURL:   baseURL,
		APIKey:    apiKey,
		StateDir:  stateDir,
		Policy:    pol,
		UserAgent: "fibe-bench",
		// The outcome journal as the CLI has it: a plain re-run of a create
		// that lost its answer reuses its key.
		Profile:       "bench",
		JournalWindow: reliability.DefaultJournalWindow,
	})
	if err != nil {
		return nil, err
	}
	return &fibeClient{C: c}, nil
}

func (f *fibeClient) GetPlayground(ctx context.Context, ref string) error {
	_, _, err := f.C.Playgrounds.Get(ctx, ref)
	return err
}

func (f *fibeClient) Me(ctx context.Context) error {
	_, _, err := f.C.Me(ctx)
	return err
}

// CreatePlayground returns the idempotency key of the operation: from the
// typed error when it failed (what the CLI prints), from the response
// metadata when it succeeded.
func (f *fibeClient) CreatePlayground(ctx context.Context, fields map[string]any, key string) (string, error) {
	_, resp, err := f.C.Playgrounds.Create(ctx, fields, client.MutationOptions{IdempotencyKey: key}, f.Wait)
	if err != nil {
		if e, ok := client.AsError(err); ok {
			return e.IdempotencyKey, err
		}
		return "", err
	}
	if resp != nil && resp.IdempotencyKey != "" {
		return resp.IdempotencyKey, nil
	}
	return key, nil
}

func isCircuitOpen(err error) bool { return client.IsCircuitOpen(err) }

// errorCode is the typed error's code, or "" for other errors.
func errorCode(err error) string {
	if e, ok := client.AsError(err); ok {
		return e.Code
	}
	return ""
}

// circuitRetryIn is how long a CIRCUIT_OPEN error told the user to wait
// ("retry in 23s"); 0 for any other error.
func circuitRetryIn(err error) time.Duration {
	if e, ok := client.AsError(err); ok && e.Code == client.CodeCircuitOpen {
		return e.RetryAfter
	}
	return 0
}
