package client

import (
	"context"
	"io"
	"net/http"

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
	t, err := c.CableTarget(ctx)
	if err != nil {
		return nil, err
	}
	r := &request{method: "STREAM", ref: "/cable", url: "/cable"}
	actx, cancel := context.WithTimeout(ctx, c.policy.AttemptTimeout)
	defer cancel()
	ws, resp, err := websocket.Dial(actx, t.URL.String(), &websocket.DialOptions{HTTPClient: t.HTTPClient, HTTPHeader: t.Header, Subprotocols: t.Protocols})
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
