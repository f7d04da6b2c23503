package output

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fibegg/fibe/internal/client"
)

func TestExitCode(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"plain", errors.New("boom"), 1},
		{"usage", FlagErrorf("bad flag"), 2},
		{"wrapped usage", fmt.Errorf("outer: %w", FlagErrorf("bad")), 2},
		{"no key", &AuthRequiredError{APIURL: "https://fibe.gg"}, 4},
		{"context canceled", context.Canceled, 130},
		{"not found", &client.Error{Status: 404, Code: client.CodeNotFound}, 3},
		{"unauthorized", &client.Error{Status: 401, Code: client.CodeUnauthorized}, 4},
		{"forbidden", &client.Error{Status: 403, Code: client.CodeForbidden}, 4},
		{"validation", &client.Error{Status: 422, Code: client.CodeValidation}, 5},
		{"bad request", &client.Error{Status: 400, Code: client.CodeBadRequest}, 5},
		{"refused before sending", &client.Error{Code: client.CodeInvalidArgument, Details: map[string]any{"field": "path"}}, 2},
		{"conflict", &client.Error{Status: 409, Code: client.CodeConflict}, 6},
		{"locked", &client.Error{Status: 423, Code: client.CodeLocked}, 6},
		{"not funded", &client.Error{Status: 402, Code: client.CodeNotFunded}, 7},
		{"quota", &client.Error{Status: 403, Code: client.CodeQuotaExceeded}, 7},
		{"rate limited", &client.Error{Status: 429, Code: client.CodeRateLimited}, 8},
		{"circuit open", &client.Error{Code: client.CodeCircuitOpen}, 9},
		{"async timeout", &client.Error{Code: client.CodeAsyncTimeout, RequestID: "req_1", Async: true}, 10},
		{"remote failed", &client.Error{Code: client.CodeRemoteFailed, Async: true}, 11},
		{"terminal state", &client.Error{Code: client.CodeTerminalState}, 11},
		{"job failed", &client.Error{Code: client.CodeJobFailed}, 11},
		{"async error with a server code", &client.Error{Code: "PLAYGROUND_BUILD_FAILED", Async: true}, 11},
		{"async validation is a remote failure", &client.Error{Code: client.CodeValidation, Async: true}, 11},
		{"5xx after retries", &client.Error{Status: 503, Code: client.CodeInternal}, 12},
		{"500", &client.Error{Status: 500, Code: client.CodeInternal}, 12},
		{"network", &client.Error{Code: client.CodeNetwork}, 12},
		{"request timeout", &client.Error{Code: client.CodeRequestTimeout}, 12},
		{"internal without a response is still the server's failure", &client.Error{Code: client.CodeInternal}, 12},
		{"invalid response", &client.Error{Status: 200, Code: client.CodeInvalidResponse}, 1},
		{"invalid async result", &client.Error{Code: client.CodeInvalidResponse, Async: true, RequestID: "req_1"}, 1},
		{"not implemented", &client.Error{Status: 501, Code: client.CodeNotImplemented}, 1},
		{"cancelled", &client.Error{Code: client.CodeCancelled, IdempotencyKey: "k"}, 130},
		{"unknown code, 404", &client.Error{Status: 404, Code: "SOMETHING_NEW"}, 3},
		{"unknown code, 402", &client.Error{Status: 402, Code: "SOMETHING_NEW"}, 7},
		{"unknown code, 429", &client.Error{Status: 429, Code: "SOMETHING_NEW"}, 8},
		{"unknown code, 503", &client.Error{Status: 503, Code: "SOMETHING_NEW"}, 12},
		{"unknown code, 410: a 4xx is a bad request", &client.Error{Status: 410, Code: "SOMETHING_NEW"}, 5},
		{"unknown code, 501: not implemented", &client.Error{Status: 501, Code: "SOMETHING_NEW"}, 1},
		{"unknown code without a response", &client.Error{Code: "SOMETHING_NEW"}, 1},
		{"wrapped client error", fmt.Errorf("ctx: %w", &client.Error{Status: 409, Code: client.CodeConflict}), 6},
	}
	for _, c := range cases {
		if got := ExitCode(c.err); got != c.want {
			t.Errorf("%s: ExitCode = %d, want %d", c.name, got, c.want)
		}
	}
}

// The presenter maps codes only: whatever status an error with a code
// this version does not know came with, it exits as the code the client
// reads it as (client.Error.KnownCode).
func TestEveryStatusReadsAsACodeWithARule(t *testing.T) {
	for status := 0; status < 600; status++ {
		e := &client.Error{Status: status, Code: "SOMETHING_NEW"}
		code := e.KnownCode()
		if got, want := ExitCode(e), ExitCode(&client.Error{Code: code}); got != want {
			t.Errorf("status %d: exit %d, want %d (that of %s)", status, got, want, code)
		}
	}
}
