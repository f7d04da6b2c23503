package output

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/fibegg/fibe/internal/client"
)

// ErrorJSON is the error document of contract §9, printed on stderr with --json.
type ErrorJSON struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody is the inner object of ErrorJSON.
type ErrorBody struct {
	Code           string         `json:"code"`
	Message        string         `json:"message"`
	Status         int            `json:"status"`
	RequestID      string         `json:"request_id"`
	Details        map[string]any `json:"details"`
	Retryable      bool           `json:"retryable"`
	IdempotencyKey string         `json:"idempotency_key"`
}

// Local codes for failures that never reached the API.
const (
	CodeUsage = "USAGE_ERROR"
	CodeError = "ERROR"
)

// ErrorBodyOf describes any error in the shape of the JSON error document.
func ErrorBodyOf(err error) ErrorBody {
	if ce, ok := client.AsError(err); ok {
		details := ce.Details
		if details == nil {
			details = map[string]any{}
		}
		return ErrorBody{
			Code: ce.Code, Message: ce.Message, Status: ce.Status, RequestID: ce.RequestID,
			Details: details, Retryable: ce.Retryable, IdempotencyKey: ce.IdempotencyKey,
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

// PrintError writes err to stderr: the JSON error document with --json,
// otherwise one line "Error: CODE: message (request req_x)" followed by
// what helps next (the failed step and reasons of a remote failure, how to
// resume an accepted operation or retry an interrupted mutation safely).
// invocation is the command line as typed, without the program name; it is
// used to print the exact command that retries safely.
func (s *IOStreams) PrintError(err error, invocation []string) {
	s.StopProgress()
	var stopped *StoppedError
	if errors.As(err, &stopped) {
		if client.IsCancelled(err) && s.stderrTTY {
			fmt.Fprint(s.ErrOut, "\r\x1b[K") // erase the "^C" the terminal echoed
		}
		return
	}
	if s.json {
		data, mErr := json.Marshal(ErrorJSON{Error: ErrorBodyOf(err)})
		if mErr != nil {
			data = []byte(`{"error":{"code":"ERROR","message":"unprintable error"}}`)
		}
		fmt.Fprintln(s.ErrOut, string(data))
		return
	}
	cs := s.ErrColorScheme()
	var b strings.Builder
	if client.IsCancelled(err) && s.stderrTTY {
		b.WriteString("\r") // write over the "^C" the terminal echoed
	}
	fmt.Fprintf(&b, "%s %s\n", cs.Red("Error:"), oneLine(errorLine(err)))
	for _, line := range errorHints(err, invocation) {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	fmt.Fprint(s.ErrOut, b.String())
}

// errorLine is the text of the one error line. For an accepted operation
// the resume advice moves to the hints below it, so it is not said twice.
func errorLine(err error) string {
	ce, ok := client.AsError(err)
	if !ok || ce.RequestID == "" || (ce.Code != client.CodeCancelled && ce.Code != client.CodeAsyncTimeout) {
		return err.Error()
	}
	if i := strings.Index(ce.Message, ": resume with `fibe ops wait "); i >= 0 {
		short := *ce
		short.Message = ce.Message[:i]
		return short.Error()
	}
	return err.Error()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// errorHints are the lines under the error line.
func errorHints(err error, invocation []string) []string {
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
	var hints []string
	// The details of a failure help (the step, the reasons); those of a wait
	// that ended early only repeat the request id, said below.
	waitEnded := ce.Code == client.CodeAsyncTimeout || ce.Code == client.CodeCancelled
	if !waitEnded && (ce.Async || ce.Code == client.CodeTerminalState || ce.Code == client.CodeValidation || ce.Code == client.CodeRemoteFailed) {
		hints = append(hints, detailLines(ce.Details)...)
	}
	// A request id on a timeout or an interrupt means the server accepted
	// the operation (202): it keeps running without us. The error line may
	// already say how to resume; the hint says it once, on its own line.
	resume := func() {
		if ce.RequestID != "" {
			hints = append(hints,
				fmt.Sprintf("Operation %s was accepted and may still finish.", ce.RequestID),
				"Resume waiting with: "+CommandLine(invocation, "ops", "wait", ce.RequestID))
		}
	}
	switch ce.Code {
	case client.CodeAsyncTimeout:
		resume()
	case client.CodeCancelled:
		resume()
		if ce.IdempotencyKey != "" && len(invocation) > 0 {
			if ce.RequestID == "" {
				hints = append(hints, fmt.Sprintf("The request may or may not have been applied (idempotency key %s).", ce.IdempotencyKey))
			}
			hints = append(hints, "Retry it safely with: "+RetryCommand(invocation, ce.IdempotencyKey))
			if GaveAPIKey(invocation) {
				// The server scopes idempotency keys to the API key.
				hints = append(hints, "Pass the same API key again (--api-key or FIBE_API_KEY); it is not printed.")
			}
		}
	case client.CodeConflict:
		// Another operation holds the playground: say which, and how to wait.
		if id, _ := ce.Details["request_id"].(string); id != "" {
			hints = append(hints, fmt.Sprintf("Wait for operation %s with: %s", id, CommandLine(invocation, "ops", "wait", id)))
		}
	case client.CodeUnauthorized:
		hints = append(hints, "Check the API key: run `fibe auth login`, or set FIBE_API_KEY.")
	case client.CodeNotFunded:
		hints = append(hints, "The marquee has not paid for today: top it up; retrying will not help.")
	case client.CodeCircuitOpen:
		hints = append(hints, fmt.Sprintf("See `%s`; `%s` clears it.", CommandLine(invocation, "breaker", "status"), CommandLine(invocation, "breaker", "reset")))
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
