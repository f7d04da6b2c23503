package reliability

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
)

func TestClassify(t *testing.T) {
	reset := fmt.Errorf("read: %w", syscall.ECONNRESET)
	cases := []struct {
		name    string
		a       Attempt
		retry   bool
		breaker Outcome
	}{
		{"200", Attempt{Status: 200}, false, Success},
		{"201", Attempt{Status: 201}, false, Success},
		{"202", Attempt{Status: 202}, false, Success},
		{"429", Attempt{Status: 429}, true, Ignored},
		{"500", Attempt{Status: 500}, true, Failure},
		{"502", Attempt{Status: 502}, true, Failure},
		{"503", Attempt{Status: 503}, true, Failure},
		{"504", Attempt{Status: 504}, true, Failure},
		{"501 terminal", Attempt{Status: 501}, false, Ignored},
		{"400", Attempt{Status: 400}, false, Ignored},
		{"402 not funded", Attempt{Status: 402}, false, Ignored},
		{"404", Attempt{Status: 404}, false, Ignored},
		{"409 conflict", Attempt{Status: 409, Reason: "stale"}, false, Ignored},
		{"409 in flight", Attempt{Status: 409, Reason: ReasonInFlight}, true, Ignored},
		{"422 sent once", Attempt{Status: 422}, false, Ignored},
		{"reset", Attempt{Err: reset}, true, Failure},
		{"refused", Attempt{Err: syscall.ECONNREFUSED}, true, Failure},
		{"EOF", Attempt{Err: io.ErrUnexpectedEOF}, true, Failure},
		{"broken pipe", Attempt{Err: syscall.EPIPE}, true, Failure},
		{"timeout idempotent", Attempt{TimedOut: true, Idempotent: true}, true, Failure},
		{"timeout not idempotent", Attempt{TimedOut: true}, false, Failure},
		{"cancelled", Attempt{Err: reset, Cancelled: true}, false, Ignored},
		{"cancelled with status", Attempt{Status: 503, Cancelled: true}, false, Ignored},
	}
	for _, c := range cases {
		d := Classify(c.a)
		if d.Retry != c.retry || d.Breaker != c.breaker || d.Reason == "" {
			t.Errorf("%s: got %+v, want retry=%v breaker=%v and a reason", c.name, d, c.retry, c.breaker)
		}
		// Only our own attempt still in flight outlasts the retry budget.
		if d.UntilDeadline != (c.name == "409 in flight") {
			t.Errorf("%s: UntilDeadline %v", c.name, d.UntilDeadline)
		}
	}
}

func TestOutcomeOfAMutationAttempt(t *testing.T) {
	refused := &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name string
		a    Attempt
		want MutationOutcome
	}{
		{"2xx", Attempt{Status: 201}, OutcomeSettled},
		{"terminal 4xx", Attempt{Status: 422}, OutcomeSettled},
		{"409 conflict", Attempt{Status: 409}, OutcomeSettled},
		{"409 in flight", Attempt{Status: 409, Reason: ReasonInFlight}, OutcomeUnknown},
		{"429", Attempt{Status: 429}, OutcomeNoNews},
		{"502", Attempt{Status: 502}, OutcomeUnknown},
		{"timeout", Attempt{TimedOut: true, Idempotent: true}, OutcomeUnknown},
		{"reset", Attempt{Err: syscall.ECONNRESET}, OutcomeUnknown},
		{"refused", Attempt{Err: refused}, OutcomeNoNews},
		{"cancelled on the wire", Attempt{Cancelled: true}, OutcomeUnknown},
	} {
		if got := OutcomeOf(tc.a); got != tc.want {
			t.Errorf("%s: OutcomeOf = %d, want %d", tc.name, got, tc.want)
		}
	}
}
