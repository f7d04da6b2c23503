package client

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// This file is the client's side of live streams: the cable URL, the
// credentials a handshake may carry, and the retry budget a stream keeps
// across reconnects. The streams themselves (log follower, terminal
// channel) live in package stream, on top of these hooks and the one
// retry loop.

// ActionCable subprotocols: the JSON flavour, and the one that carries an
// API key (base64url, unpadded) for clients that cannot set headers.
const (
	CableProtocol    = "actioncable-v1-json"
	CableKeyProtocol = "fibe-api-key."
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

// httpForm is a cable URL with ws/wss read as http/https, the form origins
// are compared in; ok is false for any other scheme.
func httpForm(u *url.URL) (*url.URL, bool) {
	h := *u
	switch u.Scheme {
	case "ws":
		h.Scheme = "http"
	case "wss":
		h.Scheme = "https"
	case "http", "https":
	default:
		return nil, false
	}
	return &h, true
}

// CableTarget is where and how to open one stream connection. Header may
// hold the API key: print Redacted, never the header.
type CableTarget struct {
	URL        *url.URL // ws:// or wss://
	Header     http.Header
	Protocols  []string
	HTTPClient *http.Client // for the handshake; follows no redirect
}

// Redacted is the URL with its token and credentials masked.
func (t *CableTarget) Redacted() string { return redactURL(t.URL) }

// KeySent reports whether the API key goes along with the handshake.
func (t *CableTarget) KeySent() bool { return t.Header.Get("Authorization") != "" }

// CableTarget fetches a fresh cable URL (CableURL falls back to the API
// host's /cable when the server has no stream tokens). The API key goes
// along only to the API's own origin or a trusted host; a plain ws:// URL
// on another non-loopback origin is refused, as for any request.
func (c *Client) CableTarget(ctx context.Context) (*CableTarget, error) {
	raw, err := c.CableURL(ctx)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, errorf(CodeInvalidResponse, "GET /api/cable_url: not a URL")
	}
	h, ok := httpForm(u)
	if !ok {
		return nil, errorf(CodeInvalidResponse, "GET /api/cable_url: unsupported scheme %q", oneLine(u.Scheme))
	}
	if err := c.checkTarget(h); err != nil {
		return nil, err
	}
	t := &CableTarget{URL: u, Header: http.Header{}, Protocols: []string{CableProtocol}, HTTPClient: c.dialHTTPClient()}
	t.Header.Set("User-Agent", c.userAgent)
	if key := c.apiKey; key != "" && c.mayAuthorize(h) {
		t.Protocols = append(t.Protocols, CableKeyProtocol+base64.RawURLEncoding.EncodeToString([]byte(key)))
		t.Header.Set("Authorization", "Bearer "+key)
	}
	return t, nil
}

// dialHTTPClient returns the HTTP client for handshakes: the Client's own
// transport when it is a real one, else a default transport (an in-process
// RoundTripper cannot carry a websocket). Redirects are not followed, so
// credentials go nowhere but the target.
func (c *Client) dialHTTPClient() *http.Client {
	rt, ok := c.http.Transport.(*http.Transport)
	if !ok {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// Tracef writes one line to the --debug trace (a no-op without it). Never
// pass it a secret.
func (c *Client) Tracef(format string, args ...any) { c.trace.printf(format, args...) }

// StreamResource is the breaker resource of streams of pg: its marquee,
// as for every request about it.
func (c *Client) StreamResource(pg *Playground) string {
	if pg.MarqueeName != "" {
		return marqueeResource(pg.MarqueeName)
	}
	return c.cachedPlaygroundResource(strconv.FormatInt(pg.ID, 10))
}

// StreamBudget is the retry budget of one live stream, kept across its
// reconnects: every (re)connect is a request of the retry loop on this
// budget, and failures that happen outside a handshake (a dropped
// connection, an expiry without progress, a refused recovery) are counted
// on it too, so a stream that cannot make progress ends after the policy's
// retries. Progress gives the whole budget back (Restart).
type StreamBudget struct {
	c        *Client
	b        *budget
	resource string
}

// NewStreamBudget returns a fresh budget for a stream whose breaker
// resource is resource.
func (c *Client) NewStreamBudget(resource string) *StreamBudget {
	return &StreamBudget{c: c, b: c.newBudget(), resource: resource}
}

// request is one (re)connect of the stream as the retry loop sees it: a
// fresh one per call, since the connecting goroutine and the stream's own
// loop use the budget concurrently.
func (s *StreamBudget) request() *request {
	return &request{method: "STREAM", ref: "/cable", url: "/cable", resource: s.resource}
}

// Retry runs attempt (one handshake) through the retry loop on this
// budget, as Client.Retry does on a fresh one.
func (s *StreamBudget) Retry(ctx context.Context, attempt func(ctx context.Context) error) error {
	return s.c.retry(ctx, s.request(), s.b, attempt)
}

// Failed counts e, a failure outside a handshake, as a failed attempt:
// it waits the backoff and returns nil, or returns the error that ends the
// stream: e itself once the budget is spent (spent is true), or CANCELLED.
func (s *StreamBudget) Failed(ctx context.Context, e *Error) (err *Error, spent bool) {
	d := reliability.Classify(reliability.Attempt{Err: e, Idempotent: true})
	d.Reason = "stream " + e.Message
	if err := s.c.afterFailure(ctx, s.request(), s.b, d, e, false); err != nil {
		return err, err.Code != CodeCancelled
	}
	return nil, false
}

// Restart gives the budget back: the stream made progress.
func (s *StreamBudget) Restart() { s.b.restart() }

// Retries is how many retries the budget holds.
func (s *StreamBudget) Retries() int { return s.c.policy.Retries() }

// Cancelled is the CANCELLED error of the stream.
func (s *StreamBudget) Cancelled(ctx context.Context) *Error { return s.c.cancelled(ctx, s.request()) }

// HandshakeError types a non-101 answer to a handshake like any HTTP error
// answer, its Retry-After included.
func (s *StreamBudget) HandshakeError(resp *http.Response) *Error {
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
	}
	return s.c.httpError(&response{status: resp.StatusCode, header: resp.Header, body: body,
		meta: &Response{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}}, s.request())
}

// TransportError types a connection failure of the stream (no answer, a
// reset, a timeout when timedOut).
func (s *StreamBudget) TransportError(err error, timedOut bool) *Error {
	e := transportError(err, timedOut, s.request())
	e.Resource = s.resource
	return e
}

// AttemptTimeout bounds one handshake.
func (s *StreamBudget) AttemptTimeout() time.Duration { return s.c.policy.AttemptTimeout }
