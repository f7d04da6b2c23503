package output

import (
	"context"
	"errors"

	"github.com/fibegg/fibe/internal/client"
)

// Exit codes of the reliability contract (docs/exit-codes.md, docs/contract.md §8). Scripts depend on them.
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

// clientExitCode is the exit code of an API error: its class, which the
// SDK's predicates read too (client.ClassOf; the rules table's exit
// column is held to it by the tests).
func clientExitCode(e *client.Error) int { return int(client.ClassOf(e)) }
