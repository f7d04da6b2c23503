package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// Input the client refuses before anything is sent (docs/contract.md §1,
// INVALID_ARGUMENT): the same checks for every door, so `fibe api`, the MCP
// fibe_api tool and the SDK refuse alike.

// InvalidArgument is the error of a value refused before anything was
// sent: INVALID_ARGUMENT naming field in Details.
func InvalidArgument(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: CodeInvalidArgument, Message: msg, Err: errors.New(msg), Details: map[string]any{"field": field}}
}

// ValidateHeader checks one extra request header: a token name (RFC 9110)
// and a value without CR, LF or other control characters, and not a header
// the client sets itself. A value with a line break would otherwise be
// refused by net/http only when the request is built, after the breaker
// admitted it.
func ValidateHeader(name, value string) error {
	if !httpguts.ValidHeaderFieldName(name) {
		return fmt.Errorf("header name %q is not a valid header name", name)
	}
	if !httpguts.ValidHeaderFieldValue(value) {
		return fmt.Errorf("header %s has a control character (CR, LF, ...) in its value", name)
	}
	switch http.CanonicalHeaderKey(name) {
	case "Authorization", "Idempotency-Key":
		return fmt.Errorf("header %s is set by the client (use the API key settings or an idempotency key)", name)
	case "Host", "Content-Length", "Transfer-Encoding", "Connection":
		return fmt.Errorf("header %s is set by the transport", name)
	}
	return nil
}

// validateHeaders checks every header of h with ValidateHeader.
func validateHeaders(h http.Header) error {
	for k, vs := range h {
		if len(vs) == 0 {
			if err := ValidateHeader(k, ""); err != nil {
				return err
			}
		}
		for _, v := range vs {
			if err := ValidateHeader(k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// hasDotSegment reports whether the path part of p (before any query) has
// a "." or ".." segment, literally or percent-encoded ("%2e%2E"), or a
// backslash some servers read as a slash: any of them could resolve to a
// path outside /api.
func hasDotSegment(p string) bool {
	p, _, _ = strings.Cut(p, "?")
	if strings.Contains(p, `\`) || strings.Contains(strings.ToLower(p), "%5c") {
		return true
	}
	for seg := range strings.SplitSeq(p, "/") {
		s := seg
		if u, err := url.PathUnescape(seg); err == nil {
			s = u
		}
		if s == "." || s == ".." || seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
