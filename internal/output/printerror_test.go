package output

import (
	"bytes"
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
	if len(lines) != 3 || lines[1] != "  Failed step: build; reason: image_pull_failed" || lines[2] != "  service: web" {
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
	errOut := &bytes.Buffer{}
	ios := iostreams.New(nil, &bytes.Buffer{}, errOut, iostreams.Terminals{Stderr: true}, nil)
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

// A secret's value given with --value never reaches a suggested command
// line, neither the safe retry nor the --new-key one.
func TestSuggestedCommandsNeverPrintASecretValue(t *testing.T) {
	for _, inv := range [][]string{
		{"secrets", "set", "DB_URL", "--value", "pw_sekrit_2"},
		{"secrets", "set", "DB_URL", "--value=pw_sekrit_2", "--new-key"},
	} {
		ios, _, _, errOut := iostreams.Test()
		PrintError(ios, &client.Error{Code: client.CodeCancelled, Message: "interrupted", IdempotencyKey: "k1",
			OutcomeUnknown: true, Resume: &client.Resume{IdempotencyKey: "k1"}}, inv, "")
		if strings.Contains(errOut.String(), "sekrit_2") {
			t.Errorf("%q: the value was printed:\n%s", inv, errOut)
		}
		mustHave(t, errOut.String(), "Retry it safely with: fibe secrets set DB_URL",
			"Give the same value again")
		if got := newKeyCommand(inv); strings.Contains(got, "sekrit_2") || got != "fibe secrets set DB_URL --new-key" {
			t.Errorf("%q: new-key command %q", inv, got)
		}
	}
}

// A build failure as the emulator's broken playspec reports it (the async
// error's details, as JSON decodes them): each fact once, the suggestion
// whole, at most six lines; --json keeps every field.
func TestPrintErrorBuildFailureIsShort(t *testing.T) {
	const suggestion = "check the image name and the registry credentials of the playspec, then roll out again; the registry answered 401 to the pull of every tag it was asked for"
	doc := `{"build_statuses":[{"service":"web","status":"failed","error":"image_pull_failed: pull access denied for registry.fibe.test/broken/web:latest"},{"service":"db","status":"skipped"}],
	"error_details":{"image":"registry.fibe.test/broken/web:latest","reason":"image_pull_failed","service":"web","step":"build"},
	"error_message":"Build failed: could not pull image registry.fibe.test/broken/web:latest","error_step":"build","error_step_label":"Building images",
	"failure_diagnostics":{"image":"registry.fibe.test/broken/web:latest","log_tail":["Pulling web...","Error response from daemon: pull access denied"],"reason":"image_pull_failed","service":"web","step":"build","suggestion":"` + suggestion + `"},
	"id":3,"playground":"br","playground_id":3,"reason":"image_pull_failed","service":"web","state_reason":"image_pull_failed","state_reasons":["image_pull_failed","build_failed"],"status":"error","step":"build"}`
	var details map[string]any
	if err := json.Unmarshal([]byte(doc), &details); err != nil {
		t.Fatal(err)
	}
	e := &client.Error{Code: "PLAYGROUND_BUILD_FAILED", Message: "Build failed: could not pull image registry.fibe.test/broken/web:latest",
		RequestID: "req_1", Async: true, Details: details}

	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, e, []string{"--api-url", "local", "pg", "rollout", "br"}, "rollout")
	text := errOut.String()
	if n := strings.Count(strings.TrimSpace(text), "\n") + 1; n > 6 {
		t.Errorf("%d lines, want at most 6:\n%s", n, text)
	}
	for fact, want := range map[string]int{
		"image_pull_failed": 1, "build_failed": 1, "Building images": 1, "step": 1, suggestion: 1,
		"Build failed: could not pull image": 1, "pull access denied": 1, "db skipped": 1,
		"fibe --api-url local pg status br": 1,
	} {
		if got := strings.Count(text, fact); got != want {
			t.Errorf("%q %d times, want %d:\n%s", fact, got, want, text)
		}
	}

	ios, _, _, errOut = iostreams.Test()
	ios.SetJSON(true)
	PrintError(ios, e, nil, "rollout")
	var got ErrorJSON
	if err := json.Unmarshal(errOut.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Error.Details) != len(details) {
		t.Errorf("--json details: %d fields, want all %d", len(got.Error.Details), len(details))
	}
}

// Waiting on a playground that ended in error: the line says the status and
// the server's message; the step and reasons are said once, below it.
func TestPrintErrorTerminalStateSaysEachFactOnce(t *testing.T) {
	e := &client.Error{Code: client.CodeTerminalState, RequestID: "req_2", Async: true,
		Message: "playground br reached status error at step build: image_pull_failed, build_failed",
		Details: map[string]any{"playground": "br", "status": "error", "error_step": "build",
			"state_reasons": []string{"image_pull_failed", "build_failed"}, "error_message": "Build failed"}}
	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, e, []string{"pg", "wait", "br"}, "")
	text := errOut.String()
	mustHave(t, text, "Error: PLAYGROUND_TERMINAL_STATE: playground br reached status error: Build failed (request req_2)\n",
		"  Failed step: build; reasons: image_pull_failed, build_failed\n", "fibe pg status br")
	if strings.Count(text, "image_pull_failed") != 1 || strings.Count(text, "Build failed") != 1 {
		t.Errorf("a fact twice:\n%s", text)
	}
}

// A command that names its own status command (a trick's) gets it in the
// last line of a failure; the exit code and the --json document stay the
// error's.
func TestPrintErrorNamesTheCommandsOwnStatusCommand(t *testing.T) {
	e := &client.Error{Code: client.CodeJobFailed, Message: "trick n1 failed", Async: true,
		Details: map[string]any{"playground": "n1", "status": "completed", "error_step": "job"}}
	err := WithStatusCommand(e, "tricks")
	ios, _, _, errOut := iostreams.Test()
	PrintError(ios, err, []string{"tricks", "run", "--playspec", "nightly"}, "")
	mustHave(t, errOut.String(), "The whole status: fibe tricks status n1\n")
	if strings.Contains(errOut.String(), "pg status") {
		t.Errorf("pg status named:\n%s", errOut)
	}
	if ExitCode(err) != ExitCode(e) {
		t.Errorf("exit code %d, want %d", ExitCode(err), ExitCode(e))
	}
	if got, want := ErrorBodyOf(err), ErrorBodyOf(e); got.Code != want.Code || len(got.Details) != len(want.Details) {
		t.Errorf("--json document %+v, want %+v", got, want)
	}
	if WithStatusCommand(nil, "tricks") != nil {
		t.Error("a nil error is not nil any more")
	}
}
