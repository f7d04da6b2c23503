package output

import (
	"fmt"
	"time"

	"github.com/fibegg/fibe/internal/client"
)

// rule is what the CLI makes of one error code beyond its exit code
// (which is its class, client.ClassOf, shared with the SDK's predicates):
// whether the details help the user (the failed step, the reasons), and
// the hints printed under the error line. rules is the only table of
// either.
type rule struct {
	details bool
	hints   func(h *hinter) []string
}

var rules = map[string]rule{
	client.CodeAsyncTimeout:  {hints: asyncTimeoutHints},
	client.CodeCircuitOpen:   {hints: circuitHints},
	client.CodeRemoteFailed:  {details: true},
	client.CodeTerminalState: {details: true},
	client.CodeJobFailed:     {details: true},

	client.CodeUnauthorized:  {hints: unauthorizedHints},
	client.CodeDeviceDenied:  {hints: deviceLoginHints},
	client.CodeDeviceExpired: {hints: deviceLoginHints},
	client.CodeValidation:    {details: true},
	client.CodeConflict:      {hints: conflictHints},
	client.CodeNotFunded:     {hints: notFundedHints},
	client.CodeRateLimited:   {hints: rateLimitedHints},
	client.CodeForkFailed:    {hints: forkFailedHints},
}

// ruleOf finds the rule of an API error from its code alone: the rule
// of a code that says how a wait ended, the async rule for any other code
// an async operation ended with, else the rule of the code the client says
// the error stands for (client.Error.KnownCode: a code this version does
// not know is read through the client's one status→code map). The exit
// code follows the same steps (client.ClassOf).
func ruleOf(e *client.Error) rule {
	if client.EndsWait(e.Code) {
		return rules[e.Code]
	}
	if e.Async {
		return rule{details: true}
	}
	return rules[e.KnownCode()]
}

// hinter is what a rule's hints may use: the error and the command line
// as typed, to print commands that talk to the same API.
type hinter struct {
	err        *client.Error
	invocation []string
	// statusGroup is the command group whose `status NAME` shows the
	// whole status of what failed: "pg" unless the command said otherwise
	// (StatusCommandError).
	statusGroup string
}

func (h *hinter) command(args ...string) string { return CommandLine(h.invocation, args...) }

func circuitHints(h *hinter) []string {
	return []string{fmt.Sprintf("See `%s`; `%s` clears it.", h.command("breaker", "status"), h.command("breaker", "reset"))}
}

func unauthorizedHints(*hinter) []string {
	return []string{"Check the API key: run `fibe auth login`, or set FIBE_API_KEY."}
}

func deviceLoginHints(h *hinter) []string {
	return []string{fmt.Sprintf("Start again with `%s` and approve the new code in the browser.", h.command("auth", "login", "--web"))}
}

func notFundedHints(*hinter) []string {
	return []string{"The marquee has not paid for today: top it up; retrying will not help."}
}

// conflictHints tell the operation in the way (details.request_id) from
// the request that was refused (the error line's request id).
func conflictHints(h *hinter) []string {
	if reason, _ := h.err.Details["reason"].(string); reason == client.ReasonReplayedResourceGone {
		return replayGoneHints(h)
	}
	id, _ := h.err.Details["request_id"].(string)
	if id == "" || id == h.err.RequestID {
		return nil
	}
	return []string{fmt.Sprintf("Another operation, %s, is running on it: wait for it with %s, then run this command again.",
		id, h.command("ops", "wait", id))}
}

// forkFailedHints say which templates can be forked.
func forkFailedHints(h *hinter) []string {
	return []string{"Only another player's template with a public version can be forked; to change one of your own, add a version: " +
		h.command("templates", "versions", "create", "TEMPLATE", "--body", "FILE") + "."}
}

// rateLimitedHints say when the window refills: the server's retry_after
// detail, or else the Retry-After the client honoured last.
func rateLimitedHints(h *hinter) []string {
	wait := h.err.RetryAfter
	if d, ok := detailSeconds(h.err.Details["retry_after"]); ok {
		wait = d
	}
	if wait <= 0 {
		return []string{"The retry budget is spent; the rate limit window refills within a minute: run the command again then."}
	}
	return []string{fmt.Sprintf("The retry budget is spent; the rate limit window refills in about %s: run the command again then.", roundDelay(wait))}
}

// detailSeconds reads a number of seconds from a details value.
func detailSeconds(v any) (time.Duration, bool) {
	var f float64
	switch t := v.(type) {
	case float64:
		f = t
	case int:
		f = float64(t)
	case int64:
		f = float64(t)
	case interface{ Float64() (float64, error) }:
		var err error
		if f, err = t.Float64(); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	if f <= 0 || f > 24*3600 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// replayGoneHints follow a replayed create whose resource is gone: the key
// stays bound to that create on the server (for 24 hours), so only another
// key creates it again: the user's own next key, or --new-key when the key
// came from the outcome journal.
func replayGoneHints(h *hinter) []string {
	key := h.err.IdempotencyKey
	if source, _ := h.err.Details["key_source"].(string); source == client.KeySourceExplicit {
		return []string{fmt.Sprintf("Idempotency key %s stays bound to that create on the server for 24 hours: pass a different --idempotency-key to create it again.", key)}
	}
	hint := "The key came from the outcome journal: run the command again with --new-key to create it again."
	if len(h.invocation) > 0 {
		hint = "The key came from the outcome journal: create it again with: " + newKeyCommand(h.invocation)
		return append([]string{hint}, hiddenSecrets(h.invocation)...)
	}
	return []string{hint}
}

// asyncTimeoutHints follow a timed-out wait on a playground's status (an
// accepted operation's timeout says how to resume it from its Resume).
func asyncTimeoutHints(h *hinter) []string {
	pg, forStatus := playgroundWait(h.err)
	if pg == "" {
		return nil
	}
	return []string{"Wait again with: " + h.command("pg", "wait", pg, "--for", forStatus)}
}
