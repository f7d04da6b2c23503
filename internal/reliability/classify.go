package reliability

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
)

// Outcome is what one attempt means to a circuit breaker.
type Outcome int

const (
	// Ignored attempts count as neither success nor failure (4xx, 429, cancellation).
	Ignored Outcome = iota
	// Success is a 2xx answer.
	Success
	// Failure is a 500/502/503/504 or no HTTP response at all.
	Failure
)

func (o Outcome) String() string {
	switch o {
	case Success:
		return "success"
	case Failure:
		return "failure"
	default:
		return "ignored"
	}
}

// ReasonInFlight is the 409 details.reason meaning our own earlier attempt
// with the same Idempotency-Key is still running on the server.
const ReasonInFlight = "idempotency_key_in_flight"

// Attempt describes how one attempt ended, as far as the policy cares.
type Attempt struct {
	Status     int    // HTTP status; 0 when no response came
	Err        error  // transport error when Status is 0
	Reason     string // details.reason of the error envelope, if any
	Idempotent bool   // GET/HEAD, or the request carries an Idempotency-Key
	TimedOut   bool   // this attempt's own timeout fired
	Cancelled  bool   // the caller cancelled or its deadline passed
}

// Decision is the verdict on one attempt.
type Decision struct {
	Retry   bool    // send again (if budget remains)
	Reason  string  // short why, for traces and error messages
	Breaker Outcome // what the breaker records
	// UntilDeadline: send again with the same key until the command's wait
	// deadline, outside the retry budget. Our own earlier attempt is still
	// running on the server; its answer will be replayed (docs/contract.md §2).
	UntilDeadline bool
}

// Classify decides whether an attempt is retried, and what the breaker
// counts (docs/contract.md §2 and §6).
func Classify(a Attempt) Decision {
	if a.Cancelled {
		return Decision{Reason: "cancelled", Breaker: Ignored}
	}
	if a.Status != 0 {
		return classifyStatus(a.Status, a.Reason)
	}
	if a.TimedOut {
		if a.Idempotent {
			return Decision{Retry: true, Reason: "attempt timed out", Breaker: Failure}
		}
		return Decision{Reason: "attempt timed out; request not idempotent", Breaker: Failure}
	}
	if a.Err == nil {
		return Decision{Reason: "no response", Breaker: Failure, Retry: true}
	}
	return Decision{Retry: true, Reason: transportReason(a.Err), Breaker: Failure}
}

func classifyStatus(status int, reason string) Decision {
	switch {
	case status >= 200 && status < 300:
		return Decision{Reason: "ok", Breaker: Success}
	case status == http.StatusTooManyRequests:
		return Decision{Retry: true, Reason: "429 rate limited", Breaker: Ignored}
	case status == http.StatusInternalServerError, status == http.StatusBadGateway,
		status == http.StatusServiceUnavailable, status == http.StatusGatewayTimeout:
		return Decision{Retry: true, Reason: statusReason(status), Breaker: Failure}
	case status == http.StatusConflict && reason == ReasonInFlight:
		return Decision{Retry: true, UntilDeadline: true, Reason: "409 " + ReasonInFlight, Breaker: Ignored}
	default:
		return Decision{Reason: statusReason(status) + " is terminal", Breaker: Ignored}
	}
}

func statusReason(status int) string {
	if t := http.StatusText(status); t != "" {
		return strconv.Itoa(status) + " " + t
	}
	return "HTTP " + strconv.Itoa(status)
}

// transportReason names a transport failure in a few words.
func transportReason(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EPIPE):
		return "broken pipe"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed (EOF)"
	case errors.As(err, &ne) && ne.Timeout():
		return "network timeout"
	default:
		var dns *net.DNSError
		if errors.As(err, &dns) {
			return "DNS lookup failed"
		}
		return "network error"
	}
}

// InFlight reports whether an attempt was answered 409 because an earlier
// attempt with the same key is still running on the server.
func InFlight(a Attempt) bool {
	return a.Status == http.StatusConflict && a.Reason == ReasonInFlight
}

// NothingSent reports whether a transport error proves the request never
// reached the server (the connection was refused or the name did not
// resolve), so a mutation's outcome is known: it did not run.
func NothingSent(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dns) ||
		(errors.As(err, &op) && op.Op == "dial")
}

// MutationOutcome is what one attempt of a mutation tells of whether it
// ran on the server.
type MutationOutcome int

const (
	// OutcomeNoNews is an attempt that says nothing of whether the
	// mutation ran (a 429 refused this attempt before it ran, a refused
	// connection sent nothing); what earlier attempts said still holds.
	OutcomeNoNews MutationOutcome = iota
	// OutcomeSettled is an answer of the server for this key (a 2xx, or a
	// terminal 4xx), so whether it ran is known.
	OutcomeSettled
	// OutcomeUnknown is a request that may have run with no answer to say
	// so (a 5xx, a timeout, a reset, a cancel with the request on the wire,
	// or an earlier attempt still in flight).
	OutcomeUnknown
)

// OutcomeOf classifies one attempt of a mutation (contract §10: a
// definitive answer settles it; a lost one leaves it unknown).
func OutcomeOf(a Attempt) MutationOutcome {
	switch {
	case a.Cancelled, a.TimedOut, a.Status >= 500, InFlight(a):
		return OutcomeUnknown
	case a.Status == 0 && a.Err != nil:
		if NothingSent(a.Err) {
			return OutcomeNoNews
		}
		return OutcomeUnknown
	case a.Status == http.StatusTooManyRequests, a.Status == 0:
		return OutcomeNoNews
	}
	return OutcomeSettled
}
