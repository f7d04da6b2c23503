package client

import (
	"context"
	"net/http"
	"net/url"
	"strings"
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
