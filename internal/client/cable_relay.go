package client

import (
	"context"

	"github.com/coder/websocket"
)

// DialCable opens one connection to the API's cable server, authenticated
// as the log stream is (fresh cable URL, key only to a trusted origin), and
// returns it without subscribing to anything. It makes one handshake and
// never reconnects: callers that relay a stream to someone else (the web
// console relays it to a browser) leave recovery to that someone. A
// refused handshake is a typed *Error like any HTTP answer.
func (c *Client) DialCable(ctx context.Context) (*websocket.Conn, error) {
	f := &follower{c: c, httpClient: dialHTTPClient(c)}
	t, err := f.target(ctx)
	if err != nil {
		return nil, err
	}
	ws, err := f.dialOnce(ctx, t, &request{method: "STREAM", ref: "/cable", url: "/cable"})
	if err != nil {
		return nil, err
	}
	return ws, nil
}
