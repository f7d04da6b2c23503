package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// The device login of the public CLI (docs/api.md, "Device login"): the
// client asks for a code, the user approves it in a browser where they are
// logged in, and the client polls until the platform hands it an API key.
const (
	deviceCodesPath = "/cli/device_codes"
	devicePollPath  = "/cli/device_codes/poll"
)

// DeviceCode is the answer of POST /cli/device_codes.
type DeviceCode struct {
	DeviceCode              string `json:"device_code"`
	UserCode                string `json:"user_code"`
	VerificationURI         string `json:"verification_uri"`
	VerificationURIComplete string `json:"verification_uri_complete"`
	ExpiresIn               int    `json:"expires_in"` // seconds
	Interval                int    `json:"interval"`   // seconds between polls
}

// DeviceLogin is an approved device login: the new API key (never
// printed) and what it may do.
type DeviceLogin struct {
	APIKey   string   `json:"-"`
	APIKeyID int64    `json:"api_key_id"`
	Scopes   []string `json:"scopes"`
}

// devicePoll is the answer of one poll: a status while pending or once
// authorized, an error code (RFC 8628 §3.5 names) when it ended.
type devicePoll struct {
	Status   string   `json:"status"`
	Error    string   `json:"error"`
	APIKey   string   `json:"api_key"`
	APIKeyID int64    `json:"api_key_id"`
	Scopes   []string `json:"scopes"`
}

// The statuses a poll may answer with besides 200: pending, slow_down,
// denied and expired are answers with a body to read, not failures.
var devicePollAnswers = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusGone}

// StartDeviceLogin asks the platform for a device code; hostname names
// this machine on the approval page. It sends no API key.
func (c *Client) StartDeviceLogin(ctx context.Context, hostname string) (*DeviceCode, error) {
	var dc DeviceCode
	resp, err := c.do(ctx, &request{method: http.MethodPost, ref: deviceCodesPath, resource: c.hostRes,
		body: map[string]string{"hostname": hostname}})
	if err != nil {
		return nil, err
	}
	if err := decode(resp, &dc); err != nil {
		return nil, err
	}
	if dc.DeviceCode == "" || dc.UserCode == "" || dc.VerificationURI == "" {
		return nil, invalid(resp, errors.New("device code answer without device_code, user_code or verification_uri"))
	}
	// The code and the URLs are shown on a terminal and opened in a
	// browser: a code is a short word, a URL an http(s) URL, with nothing
	// that could drive the terminal.
	if !shortWord(dc.UserCode) {
		return nil, invalid(resp, errors.New("device code answer with a malformed user_code"))
	}
	for _, u := range []string{dc.VerificationURI, dc.VerificationURIComplete} {
		if u != "" && !webURL(u) {
			return nil, invalid(resp, errors.New("device code answer with a verification URL that is not http(s)"))
		}
	}
	if dc.VerificationURIComplete == "" {
		dc.VerificationURIComplete = dc.VerificationURI
	}
	return &dc, nil
}

// printable: at most limit bytes of visible ASCII, no spaces or controls.
func printable(s string, limit int) bool {
	if len(s) > limit {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r > '~' {
			return false
		}
	}
	return true
}

func shortWord(s string) bool { return printable(s, 64) }

func webURL(s string) bool {
	if !printable(s, 2048) {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}

// WaitDeviceLogin polls until the user approves or denies the code in the
// browser, or it expires (docs/contract.md §5): at the server's interval,
// the first poll one interval after the code was issued; a slow_down
// answer, or a 429 that outlasts its retries, widens the interval for
// every later poll. A denial ends with CodeDeviceDenied, an expiry (the
// server's, or the code's lifetime passing) with CodeDeviceExpired.
// onPoll, when not nil, is told of each pending answer.
func (c *Client) WaitDeviceLogin(ctx context.Context, dc *DeviceCode, onPoll func(n int)) (*DeviceLogin, error) {
	poller := reliability.NewDevicePoller(c.policy, dc.Interval, dc.ExpiresIn, c.clock)
	var (
		login *DeviceLogin
		ended *Error
	)
	err := poller.Run(ctx, func(ctx context.Context, n int) (bool, time.Duration, error) {
		resp, err := c.do(ctx, &request{method: http.MethodPost, ref: devicePollPath, resource: c.hostRes,
			body: map[string]string{"device_code": dc.DeviceCode}, answers: devicePollAnswers, safe: true})
		if err != nil {
			e, ok := AsError(err)
			switch {
			case !ok:
				return false, 0, err
			case e.Code == CodeRateLimited || e.Status == http.StatusTooManyRequests:
				return false, 0, reliability.SlowDown(e.RetryAfter)
			}
			return false, 0, pollError(e)
		}
		var p devicePoll
		if err := json.Unmarshal(resp.body, &p); err != nil {
			return false, 0, invalid(resp, fmt.Errorf("device login poll: %v", err))
		}
		switch {
		case p.Status == "authorized" && p.APIKey != "":
			login = &DeviceLogin{APIKey: p.APIKey, APIKeyID: p.APIKeyID, Scopes: p.Scopes}
			return true, 0, nil
		case p.Error == "slow_down" || p.Status == "slow_down":
			return false, 0, reliability.SlowDown(0)
		case p.Error == "access_denied":
			ended = &Error{Status: resp.status, Code: CodeDeviceDenied, RequestID: resp.meta.RequestID,
				Message: "the login was denied in the browser; nothing was stored"}
			return true, 0, nil
		case p.Error == "expired_token" || resp.status == http.StatusGone:
			ended = expiredDevice(resp.status, resp.meta.RequestID, "the login code expired before it was approved; nothing was stored")
			return true, 0, nil
		case p.Error == "already_consumed":
			ended = expiredDevice(resp.status, resp.meta.RequestID, "the key of this login code was already handed out; nothing was stored")
			return true, 0, nil
		case p.Error == "invalid_grant":
			ended = expiredDevice(resp.status, resp.meta.RequestID, "the server does not know this login code; nothing was stored")
			return true, 0, nil
		case p.Status == "authorization_pending" || p.Error == "authorization_pending":
			if onPoll != nil {
				onPoll(n)
			}
			return false, 0, nil
		}
		what := p.Error
		if what == "" {
			what = p.Status
		}
		return false, 0, invalid(resp, fmt.Errorf("device login poll answered %q (HTTP %d)", oneLine(what), resp.status))
	})
	switch {
	case ended != nil:
		return nil, ended
	case login != nil:
		return login, nil
	case errors.Is(err, reliability.ErrPollTimeout):
		e := expiredDevice(0, "", fmt.Sprintf("the login code expired after %s without an approval%s; nothing was stored",
			poller.Timeout, lastPollFailure(err)))
		e.Details = map[string]any{}
		addLastPollError(e.Details, err)
		return nil, e
	case err != nil && ctx.Err() != nil:
		return nil, &Error{Code: CodeCancelled, Message: "interrupted while waiting for the browser; nothing was stored", Err: ctx.Err()}
	}
	return nil, err
}

func expiredDevice(status int, requestID, msg string) *Error {
	return &Error{Status: status, Code: CodeDeviceExpired, RequestID: requestID, Message: msg}
}
