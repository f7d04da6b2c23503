package client

import (
	"context"
	"net/http"
)

// Me returns the authenticated user: the cheapest authenticated call.
func (c *Client) Me(ctx context.Context) (*User, *Response, error) {
	var u User
	meta, err := c.call(ctx, &request{method: http.MethodGet, ref: "/api/me"}, &u)
	if err != nil {
		return nil, meta, err
	}
	return &u, meta, nil
}
