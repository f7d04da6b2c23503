package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	retryablehttp "github.com/hashicorp/go-retryablehttp"
)

// apiClient is what the scenarios need from each kind of client. Errors are
// logical: one call is one thing a user asked for, however many attempts it
// took underneath.
type apiClient interface {
	// GetPlayground reads one playground; nil means it was read.
	GetPlayground(ctx context.Context, ref string) error
	// Me is the cheapest authenticated read.
	Me(ctx context.Context) error
	// CreatePlayground creates one. key, when set, is an idempotency key to
	// reuse; it returns the key the operation used ("" for clients that send
	// none) so a failure can be re-run with it.
	CreatePlayground(ctx context.Context, fields map[string]any, key string) (usedKey string, err error)
}

// statusError is a baseline's failure when the last answer was not 2xx.
type statusError struct{ Status int }

func (e *statusError) Error() string { return fmt.Sprintf("HTTP %d", e.Status) }

// naiveClient is the loop people write first: on any failure, sleep a fixed
// time and send a brand-new request, with no idempotency key, up to
// MaxAttempts times. The bound exists only so the benchmark terminates.
type naiveClient struct {
	BaseURL     string
	APIKey      string
	HTTP        *http.Client
	Sleep       time.Duration
	MaxAttempts int
}

func newNaiveClient(baseURL, apiKey string, timeout, sleep time.Duration, maxAttempts int) *naiveClient {
	return &naiveClient{
		BaseURL:     baseURL,
		APIKey:      apiKey,
		HTTP:        &http.Client{Timeout: timeout, Transport: http.DefaultTransport.(*http.Transport).Clone()},
		Sleep:       sleep,
		MaxAttempts: maxAttempts,
	}
}

func (c *naiveClient) GetPlayground(ctx context.Context, ref string) error {
	return c.retry(ctx, http.MethodGet, "/api/playgrounds/"+ref, nil)
}

func (c *naiveClient) CreatePlayground(ctx context.Context, fields map[string]any, _ string) (string, error) {
	body, err := json.Marshal(map[string]any{"playground": fields})
	if err != nil {
		return "", err
	}
	return "", c.retry(ctx, http.MethodPost, "/api/playgrounds", body)
}

func (c *naiveClient) retry(ctx context.Context, method, path string, body []byte) error {
	var err error
	for attempt := 1; attempt <= c.MaxAttempts; attempt++ {
		if err = c.once(ctx, method, path, body); err == nil {
			return nil
		}
		if attempt == c.MaxAttempts {
			break
		}
		t := time.NewTimer(c.Sleep)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

func (c *naiveClient) once(ctx context.Context, method, path string, body []byte) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return err
	}
	setAPIHeaders(req.Header, c.APIKey, body != nil)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	return finish(resp)
}

// retryableClient is hashicorp/go-retryablehttp as it comes: NewClient's
// retry count, waits, backoff and retry policy. Only its logger is silenced
// and, where a scenario says so (timeout > 0), the per-attempt timeout is set.
type retryableClient struct {
	BaseURL string
	APIKey  string
	RC      *retryablehttp.Client
}

func newRetryableClient(baseURL, apiKey string, timeout time.Duration) *retryableClient {
	rc := retryablehttp.NewClient()
	rc.Logger = nil
	if timeout > 0 {
		rc.HTTPClient.Timeout = timeout
	}
	return &retryableClient{BaseURL: baseURL, APIKey: apiKey, RC: rc}
}

func (c *retryableClient) GetPlayground(ctx context.Context, ref string) error {
	return c.do(ctx, http.MethodGet, "/api/playgrounds/"+ref, nil)
}

func (c *retryableClient) CreatePlayground(ctx context.Context, fields map[string]any, _ string) (string, error) {
	body, err := json.Marshal(map[string]any{"playground": fields})
	if err != nil {
		return "", err
	}
	return "", c.do(ctx, http.MethodPost, "/api/playgrounds", body)
}

func (c *retryableClient) do(ctx context.Context, method, path string, body []byte) error {
	var raw any
	if body != nil {
		raw = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, c.BaseURL+path, raw)
	if err != nil {
		return err
	}
	setAPIHeaders(req.Header, c.APIKey, body != nil)
	resp, err := c.RC.Do(req)
	if err != nil {
		return err
	}
	return finish(resp)
}

func setAPIHeaders(h http.Header, apiKey string, hasBody bool) {
	h.Set("Authorization", "Bearer "+apiKey)
	h.Set("Accept", "application/json")
	if hasBody {
		h.Set("Content-Type", "application/json")
	}
}

// finish drains and closes the body (so the connection is reused) and turns
// a non-2xx status into an error.
func finish(resp *http.Response) error {
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &statusError{Status: resp.StatusCode}
	}
	return nil
}

func (c *naiveClient) Me(ctx context.Context) error {
	return c.retry(ctx, http.MethodGet, "/api/me", nil)
}

func (c *retryableClient) Me(ctx context.Context) error {
	return c.do(ctx, http.MethodGet, "/api/me", nil)
}
