package fibe

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// Codes the server sends.
const (
	CodeUnauthorized          = "UNAUTHORIZED"
	CodeForbidden             = "FORBIDDEN"
	CodeResourceNotFound      = "RESOURCE_NOT_FOUND"
	CodeConflict              = "CONFLICT"
	CodeLocked                = "LOCKED"
	CodeValidationFailed      = "VALIDATION_FAILED"
	CodeBadRequest            = "BAD_REQUEST"
	CodeQuotaExceeded         = "QUOTA_EXCEEDED"
	CodeMarqueeNotFunded      = "MARQUEE_NOT_FUNDED"
	CodeFeatureDisabled       = "FEATURE_DISABLED"
	CodeNotImplemented        = "NOT_IMPLEMENTED"
	CodeRateLimited           = "RATE_LIMITED"
	CodeInternalError         = "INTERNAL_ERROR"
	CodePlaygroundBuildFailed = "PLAYGROUND_BUILD_FAILED" // an async code: a rollout whose build failed
)

// Codes the client adds.
const (
	CodeCircuitOpen             = "CIRCUIT_OPEN"
	CodeRemoteRequestFailed     = "REMOTE_REQUEST_FAILED"
	CodePlaygroundTerminalState = "PLAYGROUND_TERMINAL_STATE"
	CodeJobFailed               = "JOB_FAILED" // a trick's job failed (TricksService.Wait)
	CodeAsyncTimeout            = "ASYNC_TIMEOUT"
	CodeRequestTimeout          = "REQUEST_TIMEOUT"
	CodeNetworkError            = "NETWORK_ERROR"
	CodeInvalidResponse         = "INVALID_RESPONSE"
	CodeCancelled               = "CANCELLED"
	CodeSessionExpired          = "SESSION_EXPIRED"
	CodeInvalidArgument         = "INVALID_ARGUMENT"
)

// Error is every failure of this package: each non-nil error a function,
// method or iterator returns is, or wraps, an *Error. Branch on Code, on
// the predicates (IsNotFound, IsRateLimited, ...) or on errors.Is with an
// *Error of the code; never on Message.
type Error struct {
	Code           string         `json:"code"`            // a Code* constant, or a server code this version does not know
	Message        string         `json:"message"`         // one line; not API
	Status         int            `json:"status"`          // HTTP status; 0 when no answer came
	RequestID      string         `json:"request_id"`      // X-Request-Id of the answer, else the operation id
	Details        map[string]any `json:"details"`         // never nil; only values encoding/json decodes into any
	Retryable      bool           `json:"retryable"`       // last answer 429/500/502/503/504, none, or 409 in flight
	IdempotencyKey string         `json:"idempotency_key"` // the mutation's key; "" for reads
	RetryAfter     time.Duration  `json:"-"`               // server's Retry-After on that answer (capped); CIRCUIT_OPEN: time to half-open
	Replayed       bool           `json:"-"`               // that answer carried X-Idempotent-Replayed: true
	OperationID    string         `json:"-"`               // the 202's request_id the error is about
	Resource       string         `json:"-"`               // breaker resource, e.g. "marquee/prod-eu"
	OutcomeUnknown bool           `json:"-"`               // a mutation left, no definitive answer: call again with IdempotencyKey
	Async          bool           `json:"-"`               // the outcome an accepted operation ended with

	cause error
}

// Error renders Code+": "+Message, then " (request "+RequestID+")" when
// RequestID is set.
func (e *Error) Error() string {
	msg := e.Code + ": " + e.Message
	if e.RequestID != "" {
		msg += " (request " + e.RequestID + ")"
	}
	return msg
}

// Unwrap returns the cause: context.Cause of a cancelled context, a
// *net.OpError, ...; never a type of this module's internals.
func (e *Error) Unwrap() error { return e.cause }

// Is reports whether target is an *Error with a non-empty Code equal to
// e.Code, so errors.Is(err, &fibe.Error{Code: fibe.CodeConflict}) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code != "" && t.Code == e.Code
}

// internalPrefix is the import path of packages whose types never leave
// through Unwrap.
const internalPrefix = "github.com/fibegg/fibe/internal"

// publicCause is the first error of err's chain whose type is not one of
// the module's internals.
func publicCause(err error) error {
	for err != nil {
		t := reflect.TypeOf(err)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if !strings.HasPrefix(t.PkgPath(), internalPrefix) {
			return err
		}
		err = errors.Unwrap(err)
	}
	return nil
}

// fromClient maps an error of the engine to an *Error.
func fromClient(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e
	}
	ce, ok := client.AsError(err)
	if !ok {
		// Only the encoding of a request body fails outside the engine's
		// typed errors: what the caller gave cannot be sent.
		return &Error{Code: CodeInvalidArgument, Message: oneLine(err.Error()),
			Details: map[string]any{"field": "params"}, cause: publicCause(err)}
	}
	e := &Error{Code: ce.Code, Message: ce.Message, Status: ce.Status, RequestID: ce.RequestID,
		Details: plainDetails(ce.Details), Retryable: ce.Retryable, IdempotencyKey: ce.IdempotencyKey,
		Replayed: ce.Replayed, OperationID: ce.AsyncRequestID, Resource: ce.Resource,
		OutcomeUnknown: ce.OutcomeUnknown, Async: ce.Async, cause: publicCause(ce.Err)}
	if ce.Code == client.CodeCircuitOpen {
		e.RetryAfter = ce.RetryAfter
	} else if ra, ok := ce.ServerRetryAfter(); ok {
		e.RetryAfter = ra
	}
	if e.RequestID == "" {
		e.RequestID = e.OperationID
	}
	return e
}

// plainDetails is details as encoding/json would decode them into any:
// never nil, numbers float64, lists []any, objects map[string]any.
func plainDetails(d map[string]any) map[string]any {
	out := map[string]any{}
	if len(d) == 0 {
		return out
	}
	raw, err := json.Marshal(d)
	if err != nil || json.Unmarshal(raw, &out) != nil {
		out = map[string]any{}
		for k, v := range d {
			if s, ok := v.(string); ok {
				out[k] = s
			}
		}
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// invalidArgument is the error of a value refused before anything is sent.
func invalidArgument(field, msg string) *Error {
	return &Error{Code: CodeInvalidArgument, Message: field + ": " + msg, Details: map[string]any{"field": field}}
}

// errClosed is what a call on a closed Client returns.
func errClosed() *Error {
	return &Error{Code: CodeCancelled, Message: "the client is closed", Details: map[string]any{}}
}

// classOf is the exit class of err by the CLI's rule, and whether err is
// an *Error at all.
func classOf(err error) (client.Class, *Error, bool) {
	e, ok := errors.AsType[*Error](err)
	if !ok || e == nil {
		return 0, nil, false
	}
	return client.ClassOf(&client.Error{Code: e.Code, Status: e.Status, Async: e.Async}), e, true
}

func hasClass(err error, classes ...client.Class) bool {
	c, _, ok := classOf(err)
	if !ok {
		return false
	}
	for _, want := range classes {
		if c == want {
			return true
		}
	}
	return false
}

// IsNotFound reports whether err is RESOURCE_NOT_FOUND, or an unknown code on a 404 (exit 3).
func IsNotFound(err error) bool { return hasClass(err, client.ClassNotFound) }

// IsAuth reports whether err is UNAUTHORIZED or FORBIDDEN, or an unknown code on a 401 or 403 (exit 4).
func IsAuth(err error) bool { return hasClass(err, client.ClassAuth) }

// IsValidation reports whether err is VALIDATION_FAILED, BAD_REQUEST, INVALID_SORT or an unknown
// code on a 400 or 422 (exit 5), and INVALID_ARGUMENT, refused before
// anything was sent (exit 2).
func IsValidation(err error) bool { return hasClass(err, client.ClassInvalid, client.ClassUsage) }

// IsConflict reports whether err is CONFLICT or LOCKED, or an unknown code on a 409 or 423 (exit 6).
func IsConflict(err error) bool { return hasClass(err, client.ClassConflict) }

// IsNotFunded reports whether err is MARQUEE_NOT_FUNDED, or an unknown code on a 402 (exit 7).
// Topping the marquee up is the fix; retrying is not.
func IsNotFunded(err error) bool {
	c, e, ok := classOf(err)
	return ok && c == client.ClassFunding && e.Code != CodeQuotaExceeded
}

// IsQuotaExceeded reports whether err is QUOTA_EXCEEDED (exit 7).
func IsQuotaExceeded(err error) bool {
	c, e, ok := classOf(err)
	return ok && c == client.ClassFunding && e.Code == CodeQuotaExceeded
}

// IsRateLimited reports whether err is RATE_LIMITED, or an unknown code on a 429 (exit 8).
func IsRateLimited(err error) bool { return hasClass(err, client.ClassRateLimited) }

// IsCircuitOpen reports whether err is CIRCUIT_OPEN, nothing was sent (exit 9). Error.Resource
// names the breaker, Error.RetryAfter the time until it half-opens.
func IsCircuitOpen(err error) bool { return hasClass(err, client.ClassCircuitOpen) }

// IsAsyncTimeout reports whether err is ASYNC_TIMEOUT, the wait ran out (exit 10). The operation
// may still finish: Error.OperationID resumes it (Operations.Wait).
func IsAsyncTimeout(err error) bool { return hasClass(err, client.ClassAsyncTimeout) }

// IsRemoteFailed reports whether err is the failure an accepted operation ended in:
// REMOTE_REQUEST_FAILED, PLAYGROUND_TERMINAL_STATE or any other code it
// ended with (exit 11).
func IsRemoteFailed(err error) bool { return hasClass(err, client.ClassRemoteFailed) }

// IsUnavailable reports whether err is NETWORK_ERROR, REQUEST_TIMEOUT, SESSION_EXPIRED, or
// INTERNAL_ERROR and any unknown code on a 5xx (exit 12).
func IsUnavailable(err error) bool { return hasClass(err, client.ClassUnavailable) }

// IsCancelled reports whether err is CANCELLED, the context ended (exit 130); errors.Is(err,
// context.Canceled) or context.DeadlineExceeded tells which.
func IsCancelled(err error) bool { return hasClass(err, client.ClassInterrupted) }

// IsPlaygroundTerminal reports whether the code is PLAYGROUND_TERMINAL_STATE, or
// IsRemoteFailed and Details["status"] is error, failed or destroyed.
func IsPlaygroundTerminal(err error) bool {
	c, e, ok := classOf(err)
	if !ok {
		return false
	}
	if e.Code == CodePlaygroundTerminalState {
		return true
	}
	status, _ := e.Details["status"].(string)
	return c == client.ClassRemoteFailed && (status == "error" || status == "failed" || status == "destroyed")
}

// IsJobFailed reports whether the code is JOB_FAILED: a trick whose job
// ran and failed (exit 11); Details name the failed services and reasons.
func IsJobFailed(err error) bool {
	e, ok := errors.AsType[*Error](err)
	return ok && e != nil && e.Code == CodeJobFailed
}

// IsRetryable reports Error.Retryable: the last answer was one the
// contract retries (the retries may be spent; a later call may succeed).
func IsRetryable(err error) bool {
	e, ok := errors.AsType[*Error](err)
	return ok && e != nil && e.Retryable
}

// IsOutcomeUnknown reports Error.OutcomeUnknown: a mutation was sent and no
// definitive answer came back; calling again with Error.IdempotencyKey
// (WithIdempotencyKey) finishes it.
func IsOutcomeUnknown(err error) bool {
	e, ok := errors.AsType[*Error](err)
	return ok && e != nil && e.OutcomeUnknown
}
