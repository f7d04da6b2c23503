// Package output forwards, during the move, to the two packages it was
// split into: internal/iostreams (the terminal: streams, TTY facts, color,
// spinner, prompts, tables, JSON and --jq; it knows nothing of the API) and
// internal/present (errors, exit codes, the progress of API operations and
// suggested command lines). It holds no code of its own and will be
// deleted once every caller imports those packages: new code must not use
// it.
//
// Methods that moved off IOStreams cannot be forwarded. Where they went:
//
//	ios.PrintError(err, inv)       present.PrintError(ios, err, inv, f.Operation)
//	ios.HandleEvent                present.EventHandler(ios, invocation), or
//	                               present.HandleEvent(ios, invocation, ev)
//	ios.FailProgress(err)          present.FailProgress(ios, err)
//	ios.Confirm(ctx, q)            present.Confirm(ctx, ios, q)
//	ios.PromptSecret(ctx, p)       present.PromptSecret(ctx, ios, p)
//	ios.Command(args...)           f.Command(args...) (cmdutil.Factory), or
//	                               present.CommandLine(invocation, args...)
//	ios.SetOperation(name)         f.Operation = name (cmdutil.Factory)
//	ios.Operation()                f.Operation
//	ios.SetInvocation(args)        gone: cmdutil.New records f.Invocation
//
// The prompts without the CANCELLED wording are ios.AskYesNo and
// ios.AskSecret; the progress state is changed with ios.UpdateProgress.
package output

import (
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/present"
)

// Terminal types (package iostreams).
type (
	IOStreams   = iostreams.IOStreams
	ColorScheme = iostreams.ColorScheme
	Table       = iostreams.Table
	Detail      = iostreams.Detail
	JQ          = iostreams.JQ
)

// Error and presentation types (package present).
type (
	FlagError         = present.FlagError
	AuthRequiredError = present.AuthRequiredError
	StoppedError      = present.StoppedError
	ErrorJSON         = present.ErrorJSON
	ErrorBody         = present.ErrorBody
)

// Exit codes and local error codes (package present).
const (
	ExitOK           = present.ExitOK
	ExitError        = present.ExitError
	ExitUsage        = present.ExitUsage
	ExitNotFound     = present.ExitNotFound
	ExitAuth         = present.ExitAuth
	ExitInvalid      = present.ExitInvalid
	ExitConflict     = present.ExitConflict
	ExitFunding      = present.ExitFunding
	ExitRateLimited  = present.ExitRateLimited
	ExitCircuitOpen  = present.ExitCircuitOpen
	ExitAsyncTimeout = present.ExitAsyncTimeout
	ExitRemoteFailed = present.ExitRemoteFailed
	ExitUnavailable  = present.ExitUnavailable
	ExitInterrupted  = present.ExitInterrupted

	CodeUsage = present.CodeUsage
	CodeError = present.CodeError
)

// Sentinel errors: the same values, so errors.Is matches either name.
var (
	ErrAborted    = present.ErrAborted
	ErrNoTerminal = iostreams.ErrNoTerminal
)

// Constructors and functions.
var (
	System    = iostreams.System
	Test      = iostreams.Test
	NewTable  = iostreams.NewTable
	NewDetail = iostreams.NewDetail
	Columns   = iostreams.Columns
	Check     = iostreams.Check

	FlagErrorf    = present.FlagErrorf
	FlagErrorWrap = present.FlagErrorWrap
	ExitCode      = present.ExitCode
	ErrorBodyOf   = present.ErrorBodyOf
	CommandLine   = present.CommandLine
	RetryCommand  = present.RetryCommand
	ShellJoin     = present.ShellJoin
	GaveAPIKey    = present.GaveAPIKey
)

// CompileJQ compiles a --jq expression; a bad one is a usage error, as it
// was before the move (iostreams.CompileJQ returns the plain error).
func CompileJQ(expr string) (*JQ, error) {
	q, err := iostreams.CompileJQ(expr)
	if err != nil {
		return nil, present.FlagErrorWrap(err)
	}
	return q, nil
}
