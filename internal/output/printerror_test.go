package output

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

func TestPrintErrorHuman(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	PrintError(ios, &client.Error{Status: 422, Code: client.CodeValidation, Message: "name has already been taken",
		RequestID: "req_abc123", Details: map[string]any{"name": []any{"has already been taken"}}}, nil, "")
	if out.Len() != 0 {
		t.Errorf("stdout: %q", out)
	}
	want := "Error: VALIDATION_FAILED: name has already been taken (request req_abc123)\n  name: has already been taken\n"
	if errOut.String() != want {
		t.Errorf("stderr:\n%q\nwant\n%q", errOut, want)
	}
}

func TestPrintErrorAsyncFailureDetails(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, &client.Error{Code: "PLAYGROUND_BUILD_FAILED", Message: "build failed", RequestID: "req_1", Async: true,
		Details: map[string]any{"reason": "image_pull_failed", "step": "build", "service": "web"}}, nil, "")
	lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
	if len(lines) != 4 || lines[1] != "  step: build" || lines[2] != "  reason: image_pull_failed" || lines[3] != "  service: web" {
		t.Errorf("details not in order (step, reason, rest):\n%s", errOut)
	}
}

func TestPrintErrorUsageIsOneLine(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, FlagErrorf("unknown flag: --bogus"), nil, "")
	if errOut.String() != "Error: unknown flag: --bogus\n" {
		t.Errorf("%q", errOut)
	}
}

func TestPrintErrorJSON(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	ios.SetJSON(true)
	PrintError(ios, &client.Error{Status: 404, Code: client.CodeNotFound, Message: "nope", RequestID: "req_x", IdempotencyKey: ""}, nil, "")
	if out.Len() != 0 {
		t.Errorf("stdout: %q", out)
	}
	var doc map[string]map[string]any
	if err := json.Unmarshal(errOut.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	e := doc["error"]
	for _, k := range []string{"code", "message", "status", "request_id", "details", "retryable", "idempotency_key"} {
		if _, ok := e[k]; !ok {
			t.Errorf("missing %q in %s", k, errOut)
		}
	}
	if e["code"] != "RESOURCE_NOT_FOUND" || e["status"] != float64(404) || e["request_id"] != "req_x" {
		t.Errorf("error document: %s", errOut)
	}
}

func TestRetryCommandQuoting(t *testing.T) {
	got := retryCommand([]string{"pg", "create", "--name", "it's", "--env", "A=b c", "--idempotency-key=zz"}, "k1")
	want := `fibe pg create --name 'it'\''s' --env 'A=b c' --idempotency-key k1`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func mustHave(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("missing %q in:\n%s", w, s)
		}
	}
}

// On a terminal an interrupt's error line starts at the left edge, over
// the "^C" the terminal echoed; elsewhere the line is plain.
func TestPrintErrorInterruptOnTerminal(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	ios.SetNoColor(true)
	PrintError(ios, &client.Error{Code: client.CodeCancelled, Message: "log stream interrupted"}, nil, "")
	if !strings.HasPrefix(errOut.String(), "\rError: CANCELLED") {
		t.Errorf("on a terminal: %q", errOut)
	}
	ios, _, _, errOut = iostreams.Test()
	PrintError(ios, &client.Error{Code: client.CodeCancelled, Message: "log stream interrupted"}, nil, "")
	if !strings.HasPrefix(errOut.String(), "Error: CANCELLED") {
		t.Errorf("not on a terminal: %q", errOut)
	}
}

func TestRetryCommandNeverPrintsAPIKey(t *testing.T) {
	for _, inv := range [][]string{
		{"--api-key", "sekrit_1", "pg", "restart", "x"},
		{"pg", "restart", "x", "--api-key=sekrit_1"},
	} {
		ios, _, _, errOut := iostreams.Test()
		PrintError(ios, &client.Error{Code: client.CodeCancelled, Message: "interrupted", IdempotencyKey: "k1",
			OutcomeUnknown: true, Resume: &client.Resume{IdempotencyKey: "k1"}}, inv, "")
		if strings.Contains(errOut.String(), "sekrit_1") {
			t.Errorf("%q: the API key was printed:\n%s", inv, errOut)
		}
		mustHave(t, errOut.String(), "Retry it safely with: fibe pg restart x --idempotency-key k1",
			"Pass the same API key again")
	}
}
