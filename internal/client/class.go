package client

// Class is the exit class of an error (docs/exit-codes.md): what the CLI
// exits with and what the SDK's predicates (IsNotFound, IsRateLimited, ...)
// test. Its values are the exit codes.
type Class int

// The classes, by exit code.
const (
	ClassError        Class = 1
	ClassUsage        Class = 2 // INVALID_ARGUMENT: refused before anything was sent
	ClassNotFound     Class = 3
	ClassAuth         Class = 4
	ClassInvalid      Class = 5
	ClassConflict     Class = 6
	ClassFunding      Class = 7
	ClassRateLimited  Class = 8
	ClassCircuitOpen  Class = 9
	ClassAsyncTimeout Class = 10
	ClassRemoteFailed Class = 11
	ClassUnavailable  Class = 12
	ClassInterrupted  Class = 130
)

// codeClass is the class of one known code; waitOutcome: the code says how
// a wait ended, so it keeps its class even on an error an async operation
// ended with (any other code of an async operation is ClassRemoteFailed).
type codeClass struct {
	class       Class
	waitOutcome bool
}

var codeClasses = map[string]codeClass{
	CodeCancelled:       {ClassInterrupted, true},
	CodeAsyncTimeout:    {ClassAsyncTimeout, true},
	CodeCircuitOpen:     {ClassCircuitOpen, true},
	CodeRemoteFailed:    {ClassRemoteFailed, true},
	CodeTerminalState:   {ClassRemoteFailed, true},
	CodeJobFailed:       {ClassRemoteFailed, true},
	CodeInvalidResponse: {ClassError, true},

	CodeNotFound:        {ClassNotFound, false},
	CodeUnauthorized:    {ClassAuth, false},
	CodeForbidden:       {ClassAuth, false},
	CodeDeviceDenied:    {ClassAuth, false},
	CodeDeviceExpired:   {ClassAuth, false},
	CodeValidation:      {ClassInvalid, false},
	CodeBadRequest:      {ClassInvalid, false},
	CodeInvalidSort:     {ClassInvalid, false},
	CodeForkFailed:      {ClassInvalid, false},
	CodeInvalidArgument: {ClassUsage, false},
	CodeConflict:        {ClassConflict, false},
	CodeLocked:          {ClassConflict, false},
	CodeNotFunded:       {ClassFunding, false},
	CodeQuotaExceeded:   {ClassFunding, false},
	CodeRateLimited:     {ClassRateLimited, false},
	CodeNetwork:         {ClassUnavailable, false},
	CodeRequestTimeout:  {ClassUnavailable, false},
	CodeSessionExpired:  {ClassUnavailable, false},
	CodeInternal:        {ClassUnavailable, false}, // what any 5xx without a code of its own stands for
	CodeFeatureDisabled: {ClassError, false},
	CodeNotImplemented:  {ClassError, false},
}

// EndsWait reports whether code says how a wait ended (CANCELLED,
// ASYNC_TIMEOUT, CIRCUIT_OPEN, REMOTE_REQUEST_FAILED,
// PLAYGROUND_TERMINAL_STATE, JOB_FAILED, INVALID_RESPONSE): such a code keeps its
// class and its words even on an error an async operation ended with.
func EndsWait(code string) bool { return codeClasses[code].waitOutcome }

// ClassOf is the class of e, from its code alone: (1) a code that says how
// a wait ended keeps its class; (2) else an error an async operation ended
// with is ClassRemoteFailed; (3) else the class of the code e stands for
// (KnownCode: a code this version does not know is read through its HTTP
// status); (4) else ClassError.
func ClassOf(e *Error) Class {
	if cc, ok := codeClasses[e.Code]; ok && cc.waitOutcome {
		return cc.class
	}
	if e.Async {
		return ClassRemoteFailed
	}
	if cc, ok := codeClasses[e.KnownCode()]; ok {
		return cc.class
	}
	return ClassError
}
