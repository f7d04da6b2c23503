package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/cenkalti/backoff/v4"
)

// CableURL returns a fresh ActionCable URL from GET /api/cable_url. A
// server without stream tokens (404) gets the plain /cable URL on the API
// host, to be authenticated with the API key.
func (c *Client) CableURL(ctx context.Context) (string, error) {
	var out struct {
		URL string `json:"url"`
	}
	_, err := c.call(ctx, &request{method: http.MethodGet, ref: "/api/cable_url"}, &out)
	if IsNotFound(err) {
		return c.fallbackCableURL(), nil
	}
	if err != nil {
		return "", err
	}
	if out.URL == "" {
		return "", errorf(CodeInvalidResponse, "cable_url answer has no url")
	}
	return out.URL, nil
}

func (c *Client) fallbackCableURL() string {
	u := *c.base
	if u.Scheme == "https" {
		u.Scheme = "wss"
	} else {
		u.Scheme = "ws"
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/cable"
	return u.String()
}

// Permanent marks an error returned by a Retry attempt as terminal: it is
// not retried and the breaker does not count it.
func Permanent(err error) error { return backoff.Permanent(err) }

// Retry runs attempt under the same policy as every HTTP request, for
// callers that speak something other than plain HTTP (the log stream's
// websocket): breaker admission for resource before each call, then
// classification of its error, backoff between calls, the retry budget.
//
// attempt's error is classified as: nil → success; a *Error with a Status →
// by that status; an error wrapped with Permanent → terminal, not counted;
// anything else → a transport failure (retryable, counted by the breaker).
// The result is nil or a *Error (CIRCUIT_OPEN, CANCELLED, NETWORK_ERROR,
// or the attempt's own *Error).
func (c *Client) Retry(ctx context.Context, resource string, attempt func(ctx context.Context) error) error {
	if resource == "" {
		resource = c.HostResource()
	}
	r := &request{method: "STREAM", ref: resource, resource: resource}
	_, err := c.loop(ctx, r, func(ctx context.Context, n int) outcome {
		c.trace.printf("--> stream attempt %d/%d (breaker %s)", n, c.policy.Attempts(), resource)
		err := attempt(ctx)
		if err == nil {
			return outcome{attempt: attemptOK}
		}
		var perm *backoff.PermanentError
		if errors.As(err, &perm) {
			return outcome{err: &Error{Code: codeOf(perm.Err, CodeNetwork), Message: oneLine(perm.Err.Error()), Err: perm.Err},
				attempt: attemptTerminal}
		}
		if e, ok := AsError(err); ok {
			copy := *e
			return outcome{err: &copy, attempt: statusAttempt(e)}
		}
		return outcome{err: &Error{Code: CodeNetwork, Message: "stream: " + oneLine(err.Error()), Err: err},
			attempt: transportAttempt(err)}
	})
	return err
}

func codeOf(err error, fallback string) string {
	if e, ok := AsError(err); ok {
		return e.Code
	}
	return fallback
}

// CableOrigin reports whether a cable URL is on the API's origin (ws↔http,
// wss↔https) or a trusted host, i.e. whether the API key may be sent to it.
func (c *Client) CableOrigin(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	h := *u
	switch u.Scheme {
	case "ws":
		h.Scheme = "http"
	case "wss":
		h.Scheme = "https"
	}
	return c.mayAuthorize(&h)
}

// APIKey is the credential for the cable subprotocol and header; send it
// only where CableOrigin allows.
func (c *Client) APIKey() string { return c.apiKey }

// UserAgent is the User-Agent every request carries.
func (c *Client) UserAgent() string { return c.userAgent }

// HTTPClient is the HTTP client (and transport) requests go through.
func (c *Client) HTTPClient() *http.Client { return c.http }
