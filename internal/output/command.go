package output

import (
	"slices"
	"strings"
)

// secretFlags are flags whose value is a credential or a secret (an API
// key, a secret's value): a suggested command line leaves them out, with
// their value, and the caller says what to give again (hiddenSecrets).
var secretFlags = []string{"--api-key", "--value"}

// dropped reports whether a (one argument of a command line) is left out
// of a suggested one: a secret flag, or one of drop; skipNext when its
// value is the next argument.
func dropped(a string, drop []string) (skip, skipNext bool) {
	for _, f := range append(drop, secretFlags...) {
		if a == f {
			return true, true
		}
		if strings.HasPrefix(a, f+"=") {
			return true, false
		}
	}
	return false, false
}

// withoutFlags is invocation without the secret flags and the flags of
// drop (each with its value), and without the bare flags of bare.
func withoutFlags(invocation, drop, bare []string) []string {
	args := make([]string, 0, len(invocation)+2)
	for i := 0; i < len(invocation); i++ {
		a := invocation[i]
		if skip, next := dropped(a, drop); skip {
			if next {
				i++ // drop its value too
			}
			continue
		}
		if slices.Contains(bare, a) {
			continue
		}
		args = append(args, a)
	}
	return args
}

// retryCommand is the command line that repeats an interrupted mutation
// safely: the same arguments plus --idempotency-key KEY, so the server
// replays the first answer instead of running the mutation twice. A key
// already on the command line is replaced. An --api-key or a --value is
// left out: they are never printed (hiddenSecrets tells the caller what to
// give again).
func retryCommand(invocation []string, key string) string {
	args := withoutFlags(invocation, []string{"--idempotency-key"}, nil)
	return "fibe " + shellJoin(append(args, "--idempotency-key", key))
}

// newKeyCommand is the command line that runs a mutation again as a new
// operation: the same arguments, without a key, plus --new-key.
func newKeyCommand(invocation []string) string {
	args := withoutFlags(invocation, []string{"--idempotency-key"}, []string{"--new-key"})
	return "fibe " + shellJoin(append(args, "--new-key"))
}

// carriedFlags are the global flags a suggested follow-up command must
// repeat to reach the same API as the command that suggested it. --api-key
// is not among them: keys are never printed.
var carriedFlags = []string{"--api-url", "--profile"}

// CommandLine is "fibe" plus the carried flags found in invocation, plus
// args, quoted for a POSIX shell.
func CommandLine(invocation []string, args ...string) string {
	var out []string
	for i := 0; i < len(invocation); i++ {
		a := invocation[i]
		if a == "--" {
			break
		}
		for _, flag := range carriedFlags {
			switch {
			case a == flag && i+1 < len(invocation):
				out = append(out, a, invocation[i+1])
				i++
			case strings.HasPrefix(a, flag+"="):
				out = append(out, a)
			}
		}
	}
	return "fibe " + shellJoin(append(out, args...))
}

// shellJoin quotes args for a POSIX shell so the printed command can be
// pasted back as is.
func shellJoin(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,@%+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hiddenSecrets are the hints of a suggested command line that left secret
// flags out: what to give again, never the value.
func hiddenSecrets(invocation []string) []string {
	var hints []string
	gave := func(flag string) bool {
		return slices.ContainsFunc(invocation, func(a string) bool { return a == flag || strings.HasPrefix(a, flag+"=") })
	}
	if gave("--api-key") {
		// The server scopes idempotency keys to the API key.
		hints = append(hints, "Pass the same API key again (--api-key or FIBE_API_KEY); it is not printed.")
	}
	if gave("--value") {
		hints = append(hints, "Give the same value again (on standard input, with --value-file or --value); it is not printed.")
	}
	return hints
}
