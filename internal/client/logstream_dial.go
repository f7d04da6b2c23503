package client

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"github.com/coder/websocket"

	"github.com/fibegg/fibe/internal/reliability"
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
	h, ok := httpForm(u)
	if !ok {
		return cableTarget{}, errorf(CodeInvalidResponse, "GET /api/cable_url: unsupported scheme %q", oneLine(u.Scheme))
	}
	if err := f.c.checkTarget(h); err != nil {
		return cableTarget{}, err
	}
	t := cableTarget{url: u, header: http.Header{}, protocols: []string{cableProtocol}}
	t.header.Set("User-Agent", f.c.userAgent)
	if key := f.c.apiKey; key != "" && f.c.mayAuthorize(h) {
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
	rt, ok := c.http.Transport.(*http.Transport)
	if !ok {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	return &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// connect opens a connection carrying a subscription to identifier.
//
// Connecting is one logical request under the Client's retry loop: breaker
// admission per handshake, classification, Retry-After or backoff, the
// retry budget. The budget is the stream's, shared by every (re)connect
// until the stream makes progress again, and a dropped connection (drop)
// counts as a failed attempt of it: the reconnect first waits its backoff.
// So a server that accepts and then drops every connection ends the stream
// after the policy's retries instead of causing a reconnect storm.
func (f *follower) connect(ctx context.Context, identifier string, drop *Error, why string) (*websocket.Conn, error) {
	r := f.request()
	if drop != nil {
		d := reliability.Classify(attemptOf(drop))
		d.Reason = "log stream " + why
		if err := f.c.afterFailure(ctx, r, f.budget, d, drop, false); err != nil {
			if err.Code == CodeCancelled {
				return nil, err
			}
			return nil, budgetSpent{last: err}
		}
	}
	f.c.trace.printf("stream: connecting: %s", why)
	t, err := f.target(ctx)
	if err != nil {
		return nil, err
	}
	var ws *websocket.Conn
	err = f.c.retry(ctx, r, f.budget, func(ctx context.Context) error {
		conn, err := f.dialOnce(ctx, t, r)
		if err != nil {
			return err
		}
		if err := conn.Write(ctx, websocket.MessageText, subscribeCommand(identifier)); err != nil {
			_ = conn.CloseNow()
			return transportError(err, false, r)
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
func (f *follower) dialOnce(ctx context.Context, t cableTarget, r *request) (*websocket.Conn, error) {
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
		e := f.handshakeError(resp, r)
		f.c.trace.printf("stream: <-- %d %s", resp.StatusCode, e.Error())
		return nil, e
	default:
		e := transportError(err, timedOut(ctx, actx), r)
		f.c.trace.printf("stream: <-- no connection: %s", e.Message)
		return nil, e
	}
}

// handshakeError types a non-101 answer like any HTTP error answer, its
// Retry-After included.
func (f *follower) handshakeError(resp *http.Response, r *request) *Error {
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
	}
	return f.c.httpError(&response{status: resp.StatusCode, header: resp.Header, body: body,
		meta: &Response{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}}, r)
}

// dropError types the end of a live connection.
func (f *follower) dropError(err error) *Error {
	e := transportError(err, false, f.request())
	e.Retryable, e.Resource = true, f.resource
	return e
}

// progress gives the retry budget back: the stream works again, and the
// connection that shows it is the first attempt of a fresh budget.
func (f *follower) progress() { f.budget.restart() }

// budgetSpent is connect's answer once drops have spent the retry budget;
// the run loop turns it into the error (it owns the stream's state).
type budgetSpent struct{ last *Error }

func (budgetSpent) Error() string { return "log stream retry budget spent" }

// giveUp is the error once the reconnect budget is spent.
func (f *follower) giveUp(last *Error) *Error {
	e := *last
	e.Message = "log stream lost after " + strconv.Itoa(f.c.policy.Retries()) + " reconnects without progress (last: " + last.Message + ")"
	e.Retryable = true
	e.Details = map[string]any{"last_seq": f.last}
	for k, v := range last.Details {
		e.Details[k] = v
	}
	return &e
}

// request is one (re)connect of the stream, as the retry loop and the
// error builders see it.
func (f *follower) request() *request {
	return &request{method: "STREAM", ref: "/cable", url: "/cable", resource: f.resource}
}

func keyNote(t cableTarget) string {
	if t.header.Get("Authorization") != "" {
		return "sent"
	}
	return "not sent"
}

// errStale ends a connection that stopped pinging.
var errStale = errors.New("no ping for two ping intervals")
