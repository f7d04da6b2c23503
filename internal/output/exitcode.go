package output

import (
	"context"
	"errors"

	"github.com/fibegg/fibe/internal/client"
)

// Exit codes of the reliability contract (§8). Scripts depend on them.
const (
	ExitOK           = 0
	ExitError        = 1
	ExitUsage        = 2
	ExitNotFound     = 3
	ExitAuth         = 4
	ExitInvalid      = 5
	ExitConflict     = 6
	ExitFunding      = 7
	ExitRateLimited  = 8
	ExitCircuitOpen  = 9
	ExitAsyncTimeout = 10
	ExitRemoteFailed = 11
	ExitUnavailable  = 12
	ExitInterrupted  = 130
)

// ExitCode maps an error to its exit code. This is the only such mapping.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var flagErr *FlagError
	if errors.As(err, &flagErr) {
		return ExitUsage
	}
	var status interface{ ExitStatus() int } // a remote command's own exit status
	if errors.As(err, &status) {
		return status.ExitStatus()
	}
	var authErr *AuthRequiredError
	if errors.As(err, &authErr) {
		return ExitAuth
	}
	if ce, ok := client.AsError(err); ok {
		return clientExitCode(ce)
	}
	if errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	return ExitError
}

func clientExitCode(e *client.Error) int {
	// Outcomes of waiting come first: they are not about the last HTTP status.
	switch e.Code {
	case client.CodeCancelled:
		return ExitInterrupted
	case client.CodeAsyncTimeout:
		return ExitAsyncTimeout
	case client.CodeCircuitOpen:
		return ExitCircuitOpen
	case client.CodeRemoteFailed, client.CodeTerminalState:
		return ExitRemoteFailed
	}
	if e.Async {
		return ExitRemoteFailed // any code an async operation ended with
	}
	switch e.Code {
	case client.CodeNotFound:
		return ExitNotFound
	case client.CodeUnauthorized, client.CodeForbidden:
		return ExitAuth
	case client.CodeValidation, client.CodeBadRequest:
		return ExitInvalid
	case client.CodeConflict, client.CodeLocked:
		return ExitConflict
	case client.CodeNotFunded, client.CodeQuotaExceeded:
		return ExitFunding
	case client.CodeRateLimited:
		return ExitRateLimited
	case client.CodeNetwork, client.CodeRequestTimeout, client.CodeSessionExpired:
		return ExitUnavailable
	case client.CodeFeatureDisabled, client.CodeNotImplemented, client.CodeInvalidResponse:
		return ExitError
	}
	// A code this version does not know: fall back on the HTTP status.
	switch {
	case e.Status == 404:
		return ExitNotFound
	case e.Status == 401 || e.Status == 403:
		return ExitAuth
	case e.Status == 400 || e.Status == 422:
		return ExitInvalid
	case e.Status == 409 || e.Status == 423:
		return ExitConflict
	case e.Status == 402:
		return ExitFunding
	case e.Status == 429:
		return ExitRateLimited
	case e.Status >= 500:
		return ExitUnavailable
	}
	return ExitError
}
