package fibe_test

import (
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/pkg/fibe"
)

// allCodes are every Code constant, and a code this version does not know.
var allCodes = []string{
	fibe.CodeUnauthorized, fibe.CodeForbidden, fibe.CodeResourceNotFound, fibe.CodeConflict, fibe.CodeLocked,
	fibe.CodeValidationFailed, fibe.CodeBadRequest, fibe.CodeQuotaExceeded, fibe.CodeMarqueeNotFunded,
	fibe.CodeFeatureDisabled, fibe.CodeNotImplemented, fibe.CodeRateLimited, fibe.CodeInternalError,
	fibe.CodePlaygroundBuildFailed, fibe.CodeCircuitOpen, fibe.CodeRemoteRequestFailed,
	fibe.CodePlaygroundTerminalState, fibe.CodeAsyncTimeout, fibe.CodeRequestTimeout, fibe.CodeNetworkError,
	fibe.CodeInvalidResponse, fibe.CodeCancelled, fibe.CodeSessionExpired, fibe.CodeInvalidArgument,
	"SOMETHING_NEW",
}

// The predicates follow the CLI's classification: for every code, async or
// not, on every status, the one predicate that holds is the exit code the
// CLI gives the same error (none holds for exit 1).
func TestPredicatesFollowTheExitCodes(t *testing.T) {
	predicates := []struct {
		name string
		is   func(error) bool
		exit int
	}{
		{"IsNotFound", fibe.IsNotFound, output.ExitNotFound},
		{"IsAuth", fibe.IsAuth, output.ExitAuth},
		{"IsValidation", fibe.IsValidation, output.ExitInvalid},
		{"IsConflict", fibe.IsConflict, output.ExitConflict},
		{"IsNotFunded", fibe.IsNotFunded, output.ExitFunding},
		{"IsQuotaExceeded", fibe.IsQuotaExceeded, output.ExitFunding},
		{"IsRateLimited", fibe.IsRateLimited, output.ExitRateLimited},
		{"IsCircuitOpen", fibe.IsCircuitOpen, output.ExitCircuitOpen},
		{"IsAsyncTimeout", fibe.IsAsyncTimeout, output.ExitAsyncTimeout},
		{"IsRemoteFailed", fibe.IsRemoteFailed, output.ExitRemoteFailed},
		{"IsUnavailable", fibe.IsUnavailable, output.ExitUnavailable},
		{"IsCancelled", fibe.IsCancelled, output.ExitInterrupted},
	}
	statuses := []int{0, 400, 401, 402, 403, 404, 409, 422, 423, 429, 500, 502, 503, 504}
	for _, code := range allCodes {
		for _, async := range []bool{false, true} {
			for _, status := range statuses {
				want := output.ExitCode(&client.Error{Code: code, Status: status, Async: async})
				if want == output.ExitUsage {
					want = output.ExitInvalid // INVALID_ARGUMENT counts as IsValidation
				}
				err := &fibe.Error{Code: code, Status: status, Async: async}
				var held []string
				got := output.ExitError
				for _, p := range predicates {
					if p.is(err) {
						held, got = append(held, p.name), p.exit
					}
				}
				if len(held) > 1 || got != want {
					t.Errorf("%s async=%v status %d: %v hold (exit %d), the CLI exits %d", code, async, status, held, got, want)
				}
			}
		}
	}
	for _, p := range predicates {
		if p.is(nil) || p.is(errForeign{}) {
			t.Errorf("%s holds for nil or a foreign error", p.name)
		}
	}
}

type errForeign struct{}

func (errForeign) Error() string { return "foreign" }
