package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// ErrorJSON is the error document of docs/contract.md §9, printed on stderr with --json.
type ErrorJSON struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is the inner object of ErrorJSON. Resume, when set, says what
// finishes the operation: wait on an accepted request, or send the same
// mutation again with its key (its outcome is unknown).
type ErrorBody struct {
	Code           string         `json:"code"`
	Message        string         `json:"message"`
	Status         int            `json:"status"`
	RequestID      string         `json:"request_id"`
	Details        map[string]any `json:"details"`
	Retryable      bool           `json:"retryable"`
	IdempotencyKey string         `json:"idempotency_key"`
	Resume         *client.Resume `json:"resume"`
}

// Local codes for failures that never reached the API.
const (
	CodeUsage = "USAGE_ERROR"
	CodeError = "ERROR"
)

// ErrorBodyOf describes any error in the shape of the JSON error document.
// It is the only builder of that document: the CLI's --json and the MCP
// server both use it.
func ErrorBodyOf(err error) ErrorBody {
	if ce, ok := client.AsError(err); ok {
		details := ce.Details
		if details == nil {
			details = map[string]any{}
		}
		return ErrorBody{
			Code: ce.Code, Message: ce.Message, Status: ce.Status, RequestID: ce.RequestID,
			Details: details, Retryable: ce.Retryable, IdempotencyKey: ce.IdempotencyKey,
			Resume: resumeOf(ce),
		}
	}
	b := ErrorBody{Code: CodeError, Message: err.Error(), Details: map[string]any{}}
	var flagErr *FlagError
	var authErr *AuthRequiredError
	switch {
	case errors.As(err, &flagErr):
		b.Code = CodeUsage
	case errors.As(err, &authErr):
		b.Code = client.CodeUnauthorized
		b.Details = map[string]any{"hint": authErr.Hint()}
	case errors.Is(err, ErrAborted):
		b.Code = client.CodeCancelled
	}
	return b
}

// resumeOf is what finishes the operation an error is about, if anything
// does: waiting on the accepted request, or the same mutation again with
// its key when its outcome is unknown. A mutation that surely did not run
// has none.
func resumeOf(e *client.Error) *client.Resume {
	r := client.Resume{}
	if e.Resume != nil {
		r = *e.Resume
	}
	if r.WaitRequestID == "" && r.IdempotencyKey == "" && e.OutcomeUnknown {
		r.IdempotencyKey = e.IdempotencyKey
	}
	if r.WaitRequestID == "" && r.IdempotencyKey == "" {
		return nil
	}
	return &r
}

// PrintError writes err to stderr: the JSON error document with --json,
// otherwise one line "Error: CODE: message (request req_x)" followed by
// what helps next (the failed step and reasons of a remote failure, how to
// resume an accepted operation or finish a mutation whose outcome is
// unknown). invocation is the command line as typed, without the program
// name; it is used to print the exact command that finishes the operation.
// operation names the command that sent a mutation ("create"), for the
// words; it may be empty. Everything printed comes from the error's
// fields, never from its message.
func PrintError(s *iostreams.IOStreams, err error, invocation []string, operation string) {
	s.StopProgress()
	var stopped *StoppedError
	if errors.As(err, &stopped) {
		if client.IsCancelled(err) && s.IsStderrTTY() {
			fmt.Fprint(s.ErrOut, "\r\x1b[K") // erase the "^C" the terminal echoed
		}
		return
	}
	if s.JSON() {
		data, mErr := json.Marshal(ErrorJSON{Error: ErrorBodyOf(err)})
		if mErr != nil {
			data = []byte(`{"error":{"code":"ERROR","message":"unprintable error"}}`)
		}
		if s.YAML() {
			// The same error document, as YAML (--output yaml).
			if y, yErr := iostreams.JSONToYAML(data); yErr == nil {
				fmt.Fprint(s.ErrOut, string(y))
				return
			}
		}
		fmt.Fprintln(s.ErrOut, string(data))
		return
	}
	cs := s.ErrColorScheme()
	var b strings.Builder
	if client.IsCancelled(err) && s.IsStderrTTY() {
		b.WriteString("\r") // write over the "^C" the terminal echoed
	}
	fmt.Fprintf(&b, "%s %s\n", cs.Red("Error:"), Sanitize(oneLine(failureHeadline(err))))
	for _, line := range errorHints(err, invocation, operation) {
		fmt.Fprintf(&b, "  %s\n", Sanitize(line)) // details and hints quote the server
	}
	fmt.Fprint(s.ErrOut, b.String())
}

// ErrorLine is the one-line human form of an error, "CODE: message
// (request req_x)", as every door shows it: the CLI's error line, the MCP
// result's text, the console's flash.
// Server strings in it are sanitized (Sanitize).
func ErrorLine(err error) string { return Sanitize(oneLine(errorLine(err))) }

// errorLine is the text of the one error line: "CODE: message (request
// req_x)". The client words the codes it adds itself for no door in
// particular; for an interrupted or timed-out wait the line is worded here
// from the error's data, and what resumes it goes to the hints.
func errorLine(err error) string {
	ce, ok := client.AsError(err)
	if !ok {
		return err.Error()
	}
	msg, named := ce.Message, ""
	waitID := ""
	if r := resumeOf(ce); r != nil {
		waitID = r.WaitRequestID
	}
	switch ce.Code {
	case client.CodeCancelled:
		msg = "interrupted"
		if waitID != "" {
			msg, named = "interrupted while waiting for operation "+waitID, waitID
		}
	case client.CodeAsyncTimeout:
		if pg, forStatus := playgroundWait(ce); pg != "" {
			// A wait on the playground's own status (pg wait): no
			// operation was accepted; it names the playground and what
			// was waited for.
			status, _ := ce.Details["status"].(string)
			msg = fmt.Sprintf("playground %s is still %s; the wait for %s ended", pg, firstNonEmpty(status, "not "+forStatus), forStatus)
			if d, _ := ce.Details["wait_timeout"].(string); d != "" {
				msg += " after " + d
			}
			break
		}
		id := firstNonEmpty(waitID, ce.AsyncRequestID)
		if id == "" && ce.IdempotencyKey != "" {
			// A mutation answered "in flight" until the deadline: nothing
			// was accepted as an operation, the key is what finishes it.
			msg = "the earlier attempt with key " + ce.IdempotencyKey + " is still running on the server; the wait ended"
			break
		}
		id = firstNonEmpty(id, ce.RequestID)
		status, _ := ce.Details["status"].(string)
		msg, named = fmt.Sprintf("operation %s is still %s; the wait ended", id, firstNonEmpty(status, "running")), id
	}
	line := ce.Code + ": " + msg
	if ce.RequestID != "" && ce.RequestID != named {
		line += " (request " + ce.RequestID + ")"
	}
	return line
}

// playgroundWait is the playground and the status a timed-out pg wait
// was waiting for, when the error is one ("" otherwise).
func playgroundWait(ce *client.Error) (playground, forStatus string) {
	if ce.Code != client.CodeAsyncTimeout || ce.AsyncRequestID != "" {
		return "", ""
	}
	playground, _ = ce.Details["playground"].(string)
	forStatus, _ = ce.Details["waiting_for"].(string)
	if forStatus == "" {
		return "", ""
	}
	return playground, forStatus
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// errorHints are the lines under the error line: the details of a failure
// where they help, the hints of the code's rule, then what finishes the
// operation (wait on it, or run the same command again with its key).
// operation names the command ("create") for the words; it may be empty.
func errorHints(err error, invocation []string, operation string) []string {
	var authErr *AuthRequiredError
	if errors.As(err, &authErr) {
		return []string{authErr.Hint()}
	}
	var flagErr *FlagError
	if errors.As(err, &flagErr) {
		return nil // usage errors stay one line
	}
	ce, ok := client.AsError(err)
	if !ok {
		return nil
	}
	r := ruleOf(ce)
	h := &hinter{err: ce, invocation: invocation, statusGroup: "pg"}
	var group *StatusCommandError
	if errors.As(err, &group) && group.Group != "" {
		h.statusGroup = group.Group
	}
	var hints []string
	switch {
	case r.details && (ce.Async || ce.Code == client.CodeTerminalState):
		hints = append(hints, failureLines(ce, h)...)
	case r.details:
		hints = append(hints, detailLines(ce.Details)...)
	}
	if r.hints != nil {
		hints = append(hints, r.hints(h)...)
	}
	resume := resumeOf(ce)
	switch {
	case resume == nil:
	case resume.WaitRequestID != "":
		// The server accepted the operation (202): it keeps running without us.
		hints = append(hints,
			fmt.Sprintf("Operation %s was accepted and may still finish.", resume.WaitRequestID),
			"Resume waiting with: "+h.command("ops", "wait", resume.WaitRequestID))
	case resume.IdempotencyKey != "":
		hints = append(hints, unknownOutcomeHints(resume.IdempotencyKey, invocation, operation)...)
	}
	return hints
}

// unknownOutcomeHints say that a mutation may have been applied and what
// finishes it: the same command, which reuses its key by itself (the
// outcome journal), or explicitly with --idempotency-key; the server
// replays the first answer if the first attempt committed.
func unknownOutcomeHints(key string, invocation []string, operation string) []string {
	what := "the request"
	if operation != "" {
		what = "the " + operation
	}
	hints := []string{fmt.Sprintf("Outcome unknown: %s may have been applied. Run the same command again to finish it (it reuses key %s), or pass --idempotency-key %s.",
		what, key, key)}
	if len(invocation) > 0 {
		hints = append(hints, "Retry it safely with: "+retryCommand(invocation, key))
		hints = append(hints, hiddenSecrets(invocation)...)
	}
	return hints
}

// detailLines renders a details map as sorted "key: value" lines, with the
// failed step and reasons first.
func detailLines(details map[string]any) []string {
	if len(details) == 0 {
		return nil
	}
	first := []string{"step", "error_step", "error_step_label", "reason", "state_reason", "state_reasons"}
	seen := map[string]bool{}
	var lines []string
	add := func(k string) {
		v, ok := details[k]
		if !ok || seen[k] {
			return
		}
		seen[k] = true
		if text := detailValue(v); text != "" {
			lines = append(lines, fmt.Sprintf("%s: %s", k, text))
		}
	}
	for _, k := range first {
		add(k)
	}
	keys := make([]string, 0, len(details))
	for k := range details {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		add(k)
	}
	return lines
}

func detailValue(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return oneLine(t)
	case []any:
		parts := make([]string, 0, len(t))
		for _, e := range t {
			parts = append(parts, detailValue(e))
		}
		return strings.Join(parts, ", ")
	case []string:
		return strings.Join(t, ", ")
	default:
		data, err := json.Marshal(t)
		if err != nil {
			return fmt.Sprint(t)
		}
		s := string(data)
		if len(s) > 300 {
			s = s[:297] + "..."
		}
		return s
	}
}
