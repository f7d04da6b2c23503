package output

import (
	"strings"
)

// retryCommand is the command line that repeats an interrupted mutation
// safely: the same arguments plus --idempotency-key KEY, so the server
// replays the first answer instead of running the mutation twice. A key
// already on the command line is replaced. An --api-key is left out: keys
// are never printed (GaveAPIKey tells the caller to say so).
func retryCommand(invocation []string, key string) string {
	args := make([]string, 0, len(invocation)+2)
	for i := 0; i < len(invocation); i++ {
		a := invocation[i]
		if a == "--idempotency-key" || a == "--api-key" {
			i++ // drop its value too
			continue
		}
		if strings.HasPrefix(a, "--idempotency-key=") || strings.HasPrefix(a, "--api-key=") {
			continue
		}
		args = append(args, a)
	}
	args = append(args, "--idempotency-key", key)
	return "fibe " + shellJoin(args)
}

// newKeyCommand is the command line that runs a mutation again as a new
// operation: the same arguments, without a key, plus --new-key.
func newKeyCommand(invocation []string) string {
	args := make([]string, 0, len(invocation)+1)
	for i := 0; i < len(invocation); i++ {
		a := invocation[i]
		if a == "--idempotency-key" || a == "--api-key" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--idempotency-key=") || strings.HasPrefix(a, "--api-key=") || a == "--new-key" {
			continue
		}
		args = append(args, a)
	}
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

// gaveAPIKey reports whether the command line passed --api-key, which
// RetryCommand leaves out.
func gaveAPIKey(invocation []string) bool {
	for _, a := range invocation {
		if a == "--api-key" || strings.HasPrefix(a, "--api-key=") {
			return true
		}
	}
	return false
}
