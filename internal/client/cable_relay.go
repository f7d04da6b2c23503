package client

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/url"

	"github.com/coder/websocket"
)

// DialCable opens one connection to the API's cable server, authenticated
// as the log stream is (a fresh cable URL; the key goes only to the API's
// own origin or a trusted host), and returns it without subscribing to
// anything. It makes one handshake under the attempt timeout and never
// reconnects: callers that relay a stream to someone else (the web console
// relays it to a browser) leave recovery to that someone. A refused
// handshake is a typed *Error like any HTTP answer.
func (c *Client) DialCable(ctx context.Context) (*websocket.Conn, error) {
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
	header := http.Header{}
	header.Set("User-Agent", c.userAgent)
	protocols := []string{"actioncable-v1-json"}
	if key := c.apiKey; key != "" && c.mayAuthorize(h) {
		protocols = append(protocols, "fibe-api-key."+base64.RawURLEncoding.EncodeToString([]byte(key)))
		header.Set("Authorization", "Bearer "+key)
	}
	// The handshake rides the Client's own transport when it is a real one
	// (an in-process RoundTripper cannot carry a websocket) and follows no
	// redirect, so credentials go nowhere but the target.
	rt, ok := c.http.Transport.(*http.Transport)
	if !ok {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	hc := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	r := &request{method: "STREAM", ref: "/cable", url: "/cable"}
	actx, cancel := context.WithTimeout(ctx, c.policy.AttemptTimeout)
	defer cancel()
	ws, resp, err := websocket.Dial(actx, u.String(), &websocket.DialOptions{HTTPClient: hc, HTTPHeader: header, Subprotocols: protocols})
	switch {
	case err == nil:
		return ws, nil
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		var body []byte
		if resp.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBodyBytes))
		}
		return nil, c.httpError(&response{status: resp.StatusCode, header: resp.Header, body: body,
			meta: &Response{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}}, r)
	default:
		return nil, transportError(err, timedOut(ctx, actx), r)
	}
}
