package client

import (
	"errors"
	"fmt"
	"time"
)

// Codes the server sends (docs/api.md) and codes the client adds (docs/contract.md §1).
const (
	CodeUnauthorized    = "UNAUTHORIZED"
	CodeForbidden       = "FORBIDDEN"
	CodeNotFound        = "RESOURCE_NOT_FOUND"
	CodeConflict        = "CONFLICT"
	CodeLocked          = "LOCKED"
	CodeValidation      = "VALIDATION_FAILED"
	CodeBadRequest      = "BAD_REQUEST"
	CodeInvalidSort     = "INVALID_SORT"
	CodeQuotaExceeded   = "QUOTA_EXCEEDED"
	CodeNotFunded       = "MARQUEE_NOT_FUNDED"
	CodeFeatureDisabled = "FEATURE_DISABLED"
	CodeNotImplemented  = "NOT_IMPLEMENTED"
	CodeRateLimited     = "RATE_LIMITED"
	CodeInternal        = "INTERNAL_ERROR"
	// CodeForkFailed: a template that cannot be forked (one's own, or one
	// without a public version).
	CodeForkFailed = "FORK_FAILED"

	CodeCircuitOpen     = "CIRCUIT_OPEN"
	CodeRemoteFailed    = "REMOTE_REQUEST_FAILED"
	CodeTerminalState   = "PLAYGROUND_TERMINAL_STATE"
	CodeJobFailed       = "JOB_FAILED" // a trick's job ended failed (tricks.go)
	CodeAsyncTimeout    = "ASYNC_TIMEOUT"
	CodeRequestTimeout  = "REQUEST_TIMEOUT"
	CodeNetwork         = "NETWORK_ERROR"
	CodeInvalidResponse = "INVALID_RESPONSE"
	CodeCancelled       = "CANCELLED"
	CodeSessionExpired  = "SESSION_EXPIRED"
	// CodeInvalidArgument is a value the client refuses before anything is
	// sent (a path that leaves /api, a header that is not one); Details
	// "field" names the argument.
	CodeInvalidArgument = "INVALID_ARGUMENT"

	// CodeDeviceDenied and CodeDeviceExpired end a device login (`fibe
	// auth login --web`) without a key: the user denied it in the browser,
	// or the code expired (or its key was already handed out) before it was
	// approved.
	CodeDeviceDenied  = "ACCESS_DENIED"
	CodeDeviceExpired = "DEVICE_CODE_EXPIRED"
)

// Error is the one error type every failure reaches the caller as.
type Error struct {
	Status         int // HTTP status, 0 when no response
	Code           string
	Message        string
	Details        map[string]any
	RetryAfter     time.Duration // the Retry-After that was honoured, if any
	RequestID      string        // X-Request-Id, or the async request id
	Replayed       bool
	IdempotencyKey string // the key of the mutation, so the user can retry it safely
	Retryable      bool   // classification of the last answer
	Async          bool   // came from an async operation's status
	Resource       string // breaker resource, e.g. "marquee/prod-eu"
	Err            error  // cause (net error, context error)

	// AsyncRequestID is the async operation this error is about (a 202's
	// request_id), kept apart from RequestID, the X-Request-Id of the answer.
	AsyncRequestID string
	// OutcomeUnknown: a mutation attempt left and no definitive answer came
	// back (timeout, reset, 5xx, breaker or cancel after one), so it may
	// have been applied. Never set when nothing was sent or a terminal 4xx
	// answered.
	OutcomeUnknown bool
	// Resume says what finishes or resumes the operation, as data; each
	// door (CLI, MCP, console) words it itself.
	Resume *Resume

	// The server's Retry-After on this answer, for the retry loop.
	retryAfter    time.Duration
	hasRetryAfter bool
}

// Resume is what finishes an operation that did not end: wait on an
// accepted async request, or send the same mutation again with its key
// (the server replays it if the first attempt committed).
type Resume struct {
	WaitRequestID  string `json:"wait_request_id,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// Error renders "CODE: message (request req_x)".
func (e *Error) Error() string {
	msg := e.Code + ": " + e.Message
	if e.RequestID != "" {
		msg += " (request " + e.RequestID + ")"
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// AsError finds the *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

func hasCode(err error, code string) bool {
	e, ok := AsError(err)
	return ok && e.Code == code
}

// IsNotFound reports whether err is a RESOURCE_NOT_FOUND *Error.
func IsNotFound(err error) bool { return hasCode(err, CodeNotFound) }

// IsCircuitOpen reports whether err is a CIRCUIT_OPEN *Error.
func IsCircuitOpen(err error) bool { return hasCode(err, CodeCircuitOpen) }

// IsCancelled reports whether err is a CANCELLED *Error.
func IsCancelled(err error) bool { return hasCode(err, CodeCancelled) }

// IsAsyncTimeout reports whether err is an ASYNC_TIMEOUT *Error.
func IsAsyncTimeout(err error) bool { return hasCode(err, CodeAsyncTimeout) }

// IsOutcomeUnknown reports whether err ended a mutation that may have been
// applied: sending it again with its key finishes it.
func IsOutcomeUnknown(err error) bool {
	e, ok := AsError(err)
	return ok && e.OutcomeUnknown
}

// knownCodes are the codes this version gives a meaning of its own.
var knownCodes = map[string]bool{
	CodeInternal: true, CodeUnauthorized: true, CodeForbidden: true, CodeNotFound: true, CodeConflict: true, CodeLocked: true,
	CodeValidation: true, CodeBadRequest: true, CodeInvalidSort: true, CodeQuotaExceeded: true, CodeNotFunded: true,
	CodeFeatureDisabled: true, CodeNotImplemented: true, CodeRateLimited: true, CodeForkFailed: true,
	CodeCircuitOpen: true, CodeRemoteFailed: true, CodeTerminalState: true, CodeJobFailed: true, CodeAsyncTimeout: true,
	CodeRequestTimeout: true, CodeNetwork: true, CodeInvalidResponse: true, CodeCancelled: true,
	CodeSessionExpired: true, CodeInvalidArgument: true, CodeDeviceDenied: true, CodeDeviceExpired: true,
}

// KnownCode is the code of this version that e stands for, the one a door
// maps to its own words (the CLI's exit code, docs/exit-codes.md): Code
// when this version knows it, else the code of e's HTTP status, from the
// one status→code map (codeForStatus, which also names an answer whose
// body gives no code). So a code the server added later is read through
// its status: a 404 is RESOURCE_NOT_FOUND, a 503 INTERNAL_ERROR, and
// without an HTTP answer INVALID_RESPONSE. Code itself is never changed:
// it is what the server said.
func (e *Error) KnownCode() string {
	if knownCodes[e.Code] {
		return e.Code
	}
	return codeForStatus(e.Status)
}

// codeForStatus derives a code when the body names none, and is what a
// code this version does not know stands for (KnownCode): the only map
// from an HTTP status to a code.
func codeForStatus(status int) string {
	switch status {
	case 400:
		return CodeBadRequest
	case 401:
		return CodeUnauthorized
	case 402:
		return CodeNotFunded
	case 403:
		return CodeForbidden
	case 404:
		return CodeNotFound
	case 409:
		return CodeConflict
	case 422:
		return CodeValidation
	case 423:
		return CodeLocked
	case 429:
		return CodeRateLimited
	case 501:
		return CodeNotImplemented
	}
	switch {
	case status >= 500:
		return CodeInternal
	case status >= 400:
		return CodeBadRequest
	default:
		return CodeInvalidResponse
	}
}

func errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ServerRetryAfter is the Retry-After of the answer this error was made
// from (capped at the policy's MaxDelay), whether or not it was waited:
// RetryAfter holds only the one honoured.
func (e *Error) ServerRetryAfter() (time.Duration, bool) { return e.retryAfter, e.hasRetryAfter }
