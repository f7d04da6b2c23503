package output

import (
	"errors"
	"fmt"

	"github.com/fibegg/fibe/internal/config"
)

// FlagError is a usage error: a bad flag, argument or local input. It exits 2.
type FlagError struct{ err error }

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

// FlagErrorf builds a usage error.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{err: fmt.Errorf(format, args...)}
}

// FlagErrorWrap marks err as a usage error.
func FlagErrorWrap(err error) error {
	if err == nil {
		return nil
	}
	return &FlagError{err: err}
}

// StatusCommandError names the command group whose `status NAME` shows
// the whole status of what err is about (a trick's: "tricks"), for the
// last line under a failure; without it that line names `pg status`.
// Nothing else changes: the exit code and the --json document are Err's.
type StatusCommandError struct {
	Err   error
	Group string
}

func (e *StatusCommandError) Error() string { return e.Err.Error() }
func (e *StatusCommandError) Unwrap() error { return e.Err }

// WithStatusCommand says that `fibe <group> status NAME` shows what err is
// about. A nil err stays nil.
func WithStatusCommand(err error, group string) error {
	if err == nil {
		return nil
	}
	return &StatusCommandError{Err: err, Group: group}
}

// AuthRequiredError means no API key could be found. It exits 4 and tells
// the user how to provide one.
type AuthRequiredError struct {
	APIURL  string
	Profile string
}

func (e *AuthRequiredError) Error() string {
	return "no API key for " + e.APIURL
}

// Hint is the second line printed under the error.
func (e *AuthRequiredError) Hint() string {
	args := []string{}
	if e.APIURL != "" && e.APIURL != config.DefaultAPIURL {
		args = append(args, "--api-url", e.APIURL) // keys are stored per API
	}
	if e.Profile != "" && e.Profile != "default" {
		args = append(args, "--profile", e.Profile)
	}
	login := "fibe " + shellJoin(append(args, "auth", "login"))
	return fmt.Sprintf("Run `%s`, or set FIBE_API_KEY (or pass --api-key).", login)
}

// ErrAborted is returned when the user declines a confirmation prompt.
var ErrAborted = errors.New("aborted")

// StoppedError ends a command the user stopped on purpose, such as Ctrl-C
// on a followed log stream: it keeps the exit code of the error it wraps
// (130 for an interrupt) but prints nothing, because nothing went wrong.
type StoppedError struct{ Err error }

func (e *StoppedError) Error() string { return e.Err.Error() }
func (e *StoppedError) Unwrap() error { return e.Err }
