package output

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/fibegg/fibe/internal/client"
)

// maxFailureLines bounds the lines under the error line of a failed
// operation: with the error line, a failure fits in six lines at a
// terminal. --json keeps every field.
const maxFailureLines = 5

// failureKeys are the details failureLines words itself (or that repeat
// what it words: the playground's identity, the error_details and the
// diagnostics' own copy of the step, reason, service and image).
var failureKeys = map[string]bool{
	"step": true, "error_step": true, "error_step_label": true,
	"reason": true, "state_reason": true, "state_reasons": true,
	"build_statuses": true, "failure_diagnostics": true, "error_details": true,
	"error_message": true,
	"id":            true, "playground": true, "playground_id": true, "status": true,
	"async_request_id": true, "request_id": true,
}

// failureLines say why an operation failed, each fact once: where (the
// failed step and the reasons), the build statuses, the diagnostics'
// suggestion whole, any other field the server sent, and where the whole
// status is shown. The error line above them holds the code and message.
func failureLines(e *client.Error, h *hinter) []string {
	d := e.Details
	var lines []string
	if line := stepLine(d); line != "" {
		lines = append(lines, line)
	}
	builds := buildsLine(d)
	if builds != "" {
		lines = append(lines, builds)
	}
	if msg, _ := d["error_message"].(string); msg != "" && !strings.Contains(oneLine(failureHeadline(e)), oneLine(msg)) {
		lines = append(lines, "Message: "+oneLine(msg))
	}
	var diag map[string]any
	if data, err := json.Marshal(d["failure_diagnostics"]); err == nil {
		_ = json.Unmarshal(data, &diag)
	}
	if sug, _ := diag["suggestion"].(string); sug != "" {
		lines = append(lines, "Suggestion: "+oneLine(sug))
	}
	var rest []string
	for k := range d {
		if builds != "" && (k == "service" || k == "image") {
			continue // the builds line names the service that failed and why
		}
		if !failureKeys[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	name, _ := d["playground"].(string)
	budget := maxFailureLines - len(lines)
	if name != "" {
		budget-- // the last line names the command that shows everything
	}
	for i, k := range rest {
		if budget <= 0 {
			break
		}
		if budget == 1 && i < len(rest)-1 {
			lines = append(lines, fmt.Sprintf("(%d more fields with --json)", len(rest)-i))
			break
		}
		if text := detailValue(d[k]); text != "" {
			lines = append(lines, k+": "+text)
			budget--
		}
	}
	if name != "" {
		lines = append(lines, "The whole status: "+h.command(h.statusGroup, "status", name))
	}
	return lines
}

// failureHeadline is the error line of the terminal: errorLine, except
// that a playground's terminal state is worded without the step and
// reasons, which failureLines put on the line below.
func failureHeadline(err error) string {
	ce, ok := client.AsError(err)
	if !ok || ce.Code != client.CodeTerminalState {
		return errorLine(err)
	}
	name, _ := ce.Details["playground"].(string)
	status, _ := ce.Details["status"].(string)
	if name == "" || status == "" {
		return errorLine(err)
	}
	line := ce.Code + ": playground " + name + " reached status " + status
	if msg, _ := ce.Details["error_message"].(string); msg != "" {
		line += ": " + msg
	} else if stepLine(ce.Details) == "" {
		return errorLine(err) // the message is all there is
	}
	if ce.RequestID != "" {
		line += " (request " + ce.RequestID + ")"
	}
	return line
}

// stepLine is "Failed step: build (Building images); reasons: a, b", from
// whichever of the step and reason fields the server sent.
func stepLine(d map[string]any) string {
	step := firstString(d, "error_step", "step")
	if label, _ := d["error_step_label"].(string); label != "" && label != step {
		if step == "" {
			step = label
		} else {
			step += " (" + label + ")"
		}
	}
	reasons := distinct(stringsOf(d["reason"]), stringsOf(d["state_reason"]), stringsOf(d["state_reasons"]))
	var parts []string
	if step != "" {
		parts = append(parts, "Failed step: "+oneLine(step))
	}
	if len(reasons) == 1 {
		parts = append(parts, "reason: "+reasons[0])
	} else if len(reasons) > 1 {
		parts = append(parts, "reasons: "+strings.Join(reasons, ", "))
	}
	line := strings.Join(parts, "; ")
	if line != "" {
		line = strings.ToUpper(line[:1]) + line[1:]
	}
	return line
}

// buildsLine is "Builds: web failed: pull access denied ...; db skipped".
// A build error that starts with a reason already named loses it.
func buildsLine(d map[string]any) string {
	var list []any
	if data, err := json.Marshal(d["build_statuses"]); err == nil {
		_ = json.Unmarshal(data, &list) // typed statuses (a wait's) read as JSON's
	}
	reasons := distinct(stringsOf(d["reason"]), stringsOf(d["state_reason"]), stringsOf(d["state_reasons"]))
	var parts []string
	for _, item := range list {
		b, ok := item.(map[string]any)
		if !ok {
			if text := detailValue(item); text != "" {
				parts = append(parts, text)
			}
			continue
		}
		service, _ := b["service"].(string)
		status, _ := b["status"].(string)
		part := strings.TrimSpace(service + " " + status)
		if msg, _ := b["error"].(string); msg != "" {
			for _, r := range reasons {
				msg = strings.TrimPrefix(msg, r+": ")
			}
			part += ": " + msg
		}
		parts = append(parts, oneLine(part))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Builds: " + strings.Join(parts, "; ")
}

func firstString(d map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, _ := d[k].(string); s != "" {
			return s
		}
	}
	return ""
}

// stringsOf reads a string or a list of strings.
func stringsOf(v any) []string {
	switch t := v.(type) {
	case string:
		if t != "" {
			return []string{oneLine(t)}
		}
	case []string:
		return t
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok && s != "" {
				out = append(out, oneLine(s))
			}
		}
		return out
	}
	return nil
}

// distinct joins lists, keeping the first of each value.
func distinct(lists ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
