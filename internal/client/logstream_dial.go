package client

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/coder/websocket"
)

// cableTarget is where and how to open one stream connection.
type cableTarget struct {
	url       *url.URL // ws:// or wss://
	header    http.Header
	protocols []string
}

// target fetches a fresh cable URL (CableURL falls back to the API host's
// /cable when the server has no stream tokens). The API key goes along
// only to the API's own origin or a trusted host; a plain ws:// URL on
// another non-loopback origin is refused, as for any request.
func (f *follower) target(ctx context.Context) (cableTarget, error) {
	raw, err := f.c.CableURL(ctx)
	if err != nil {
		return cableTarget{}, err
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return cableTarget{}, errorf(CodeInvalidResponse, "GET /api/cable_url: not a URL")
	}
	h := *u
	switch u.Scheme {
	case "ws":
		h.Scheme = "http"
	case "wss":
		h.Scheme = "https"
	case "http", "https":
	default:
		return cableTarget{}, errorf(CodeInvalidResponse, "GET /api/cable_url: unsupported scheme %q", oneLine(u.Scheme))
	}
	if err := f.c.checkTarget(&h); err != nil {
		return cableTarget{}, err
	}
	t := cableTarget{url: u, header: http.Header{}, protocols: []string{cableProtocol}}
	t.header.Set("User-Agent", f.c.UserAgent())
	if key := f.c.APIKey(); key != "" && f.c.CableOrigin(raw) {
		t.protocols = append(t.protocols, cableKeyProtocol+base64.RawURLEncoding.EncodeToString([]byte(key)))
		t.header.Set("Authorization", "Bearer "+key)
	}
	return t, nil
}

// dialHTTPClient returns the HTTP client for handshakes: the Client's own
// transport when it is a real one, else a default transport (an in-process
// RoundTripper cannot carry a websocket). Redirects are not followed, so
// credentials go nowhere but the target.
func dialHTTPClient(c *Client) *http.Client {
	rt, ok := c.HTTPClient().Transport.(*http.Transport)
	if !ok {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// connect opens a connection carrying a subscription to identifier.
//
// Each connection is one logical request under the Client's retry loop
// (Client.Retry): breaker admission per attempt, classification, backoff,
// the retry budget. Reconnects after a failure (wait) also pace
// themselves: they draw a delay from the policy's backoff first, and the
// budget of that backoff is shared by every reconnect until the stream
// makes progress again, so a server that accepts and then drops every
// connection cannot cause a reconnect storm.
func (f *follower) connect(ctx context.Context, identifier string, wait bool, why string) (*websocket.Conn, error) {
	if wait {
		delay, ok := f.nextDelay()
		if !ok {
			return nil, budgetSpent{}
		}
		f.c.trace.printf("stream: %s; reconnecting in %s", why, delay.Round(time.Millisecond))
		f.c.emit(Event{Kind: EventRetry, Method: "STREAM", URL: f.resource, Delay: delay,
			Reason: "log stream: " + why, Resource: f.resource})
		if f.c.clock.Sleep(ctx, delay) != nil {
			return nil, f.c.cancelled(ctx, f.request(), nil)
		}
	}
	t, err := f.target(ctx)
	if err != nil {
		return nil, err
	}
	var ws *websocket.Conn
	err = f.c.Retry(ctx, f.resource, func(ctx context.Context) error {
		conn, err := f.dialOnce(ctx, t)
		if err != nil {
			return err
		}
		if err := conn.Write(ctx, websocket.MessageText, subscribeCommand(identifier)); err != nil {
			_ = conn.CloseNow()
			return transportError(err, false, f.request())
		}
		ws = conn
		return nil
	})
	if err != nil {
		if ws != nil {
			_ = ws.CloseNow()
		}
		return nil, err
	}
	return ws, nil
}

// dialOnce is one handshake under the attempt timeout. A non-101 answer is
// typed like any HTTP error answer (its status decides retry and breaker).
func (f *follower) dialOnce(ctx context.Context, t cableTarget) (*websocket.Conn, error) {
	f.c.trace.printf("stream: --> GET %s (key %s)", redactURL(t.url), keyNote(t))
	actx, cancel := context.WithTimeout(ctx, f.c.policy.AttemptTimeout)
	defer cancel()
	ws, resp, err := websocket.Dial(actx, t.url.String(), &websocket.DialOptions{
		HTTPClient: f.httpClient, HTTPHeader: t.header, Subprotocols: t.protocols,
	})
	switch {
	case err == nil:
		f.c.trace.printf("stream: <-- 101 connected (subprotocol %s)", ws.Subprotocol())
		return ws, nil
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		e := f.handshakeError(resp)
		f.c.trace.printf("stream: <-- %d %s", resp.StatusCode, e.Error())
		return nil, e
	default:
		e := transportError(err, timedOut(ctx, actx), f.request())
		f.c.trace.printf("stream: <-- no connection: %s", e.Message)
		return nil, e
	}
}

// handshakeError types a non-101 answer like any HTTP error answer.
func (f *follower) handshakeError(resp *http.Response) *Error {
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
	}
	return f.c.httpError(&response{status: resp.StatusCode, header: resp.Header, body: body,
		meta: &Response{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}}, f.request())
}

// dropError types the end of a live connection.
func (f *follower) dropError(err error) *Error {
	e := transportError(err, false, f.request())
	e.Retryable, e.Resource = true, f.resource
	return e
}

// nextDelay draws the next backoff delay; false when the budget is spent.
func (f *follower) nextDelay() (time.Duration, bool) {
	f.boMu.Lock()
	defer f.boMu.Unlock()
	d := f.bo.NextBackOff()
	return d, d != backoff.Stop
}

// progress gives the retry budget back: the stream works again.
func (f *follower) progress() {
	f.boMu.Lock()
	f.bo.Reset()
	f.boMu.Unlock()
}

// budgetSpent is connect's answer once the retry budget is spent; the run
// loop turns it into the error (it owns the stream's state).
type budgetSpent struct{}

func (budgetSpent) Error() string { return "log stream retry budget spent" }

// giveUp is the error once the reconnect budget is spent.
func (f *follower) giveUp() *Error {
	last := f.lastDrop
	if last == nil {
		last = &Error{Code: CodeNetwork, Message: "log stream connection keeps dropping", Resource: f.resource}
	}
	e := *last
	e.Message = "log stream lost after " + strconv.Itoa(f.c.policy.Retries()) + " reconnects without progress (last: " + last.Message + ")"
	e.Retryable = true
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details["last_seq"] = f.last
	return &e
}

// request describes stream attempts to the Client's error builders.
func (f *follower) request() *request {
	return &request{method: http.MethodGet, ref: "/cable", resource: f.resource}
}

func keyNote(t cableTarget) string {
	if t.header.Get("Authorization") != "" {
		return "sent"
	}
	return "not sent"
}

// errStale ends a connection that stopped pinging.
var errStale = errors.New("no ping for two ping intervals")
