package output

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
)

// The presenter words errors from their fields only: each case gives the
// error data, and what the human output must and must not say.
func TestPresenterFromErrorData(t *testing.T) {
	const key = "5f0c9a1e2b3d4c5e6f708192a3b4c5d6"
	create := []string{"--api-url", "local", "pg", "create", "--name", "hostile-10", "--playspec", "web"}
	cases := []struct {
		name      string
		err       *client.Error
		inv       []string
		operation string
		exit      int
		want      []string
		not       []string
		lines     int // total lines on stderr, when checked
	}{
		{
			name: "5xx after the budget on a create: outcome unknown",
			err: &client.Error{Status: 503, Code: client.CodeInternal, Message: "service temporarily unavailable",
				RequestID: "req_a1", IdempotencyKey: key, Retryable: true, OutcomeUnknown: true,
				Resume: &client.Resume{IdempotencyKey: key}},
			inv: create, operation: "create", exit: 12,
			want: []string{
				"Error: INTERNAL_ERROR: service temporarily unavailable (request req_a1)\n",
				"  Outcome unknown: the create may have been applied. Run the same command again to finish it (it reuses key " + key + "), or pass --idempotency-key " + key + ".\n",
				"  Retry it safely with: fibe --api-url local pg create --name hostile-10 --playspec web --idempotency-key " + key + "\n",
			},
			lines: 3,
		},
		{
			name: "rate limited after a lost answer: outcome unknown, and when the window refills",
			err: &client.Error{Status: 429, Code: client.CodeRateLimited, Message: "too many requests",
				RequestID: "req_b2", IdempotencyKey: key, Retryable: true, RetryAfter: 1e9, OutcomeUnknown: true,
				Resume: &client.Resume{IdempotencyKey: key}},
			inv: create, operation: "create", exit: 8,
			want: []string{"rate limit window refills in about 1s", "Outcome unknown: the create may have been applied", "--idempotency-key " + key},
		},
		{
			name: "rate limit detail wins over the honoured Retry-After",
			err: &client.Error{Status: 429, Code: client.CodeRateLimited, Message: "rate limit exceeded",
				Details: map[string]any{"retry_after": json.Number("42")}},
			exit: 8,
			want: []string{"refills in about 42s"},
			not:  []string{"Outcome unknown"},
		},
		{
			name: "terminal 4xx: surely not applied, nothing said of an outcome",
			err: &client.Error{Status: 422, Code: client.CodeValidation, Message: "name has already been taken",
				RequestID: "req_c3", IdempotencyKey: key, Details: map[string]any{"name": []any{"has already been taken"}}},
			inv: create, operation: "create", exit: 5,
			want: []string{"Error: VALIDATION_FAILED: name has already been taken (request req_c3)\n  name: has already been taken\n"},
			not:  []string{"Outcome", "idempotency-key", "Retry it"},
		},
		{
			name: "interrupted before anything was sent: no outcome line",
			err:  &client.Error{Code: client.CodeCancelled, Message: "interrupted; retry with `fibe whatever`", IdempotencyKey: key},
			inv:  create, operation: "create", exit: 130,
			want:  []string{"Error: CANCELLED: interrupted\n"},
			not:   []string{"Outcome", "Retry it", "whatever"},
			lines: 1,
		},
		{
			name: "interrupted with the request on the wire",
			err: &client.Error{Code: client.CodeCancelled, Message: "interrupted", IdempotencyKey: key,
				OutcomeUnknown: true, Resume: &client.Resume{IdempotencyKey: key}},
			inv: []string{"pg", "restart", "my app", "--idempotency-key", "old"}, operation: "restart", exit: 130,
			want: []string{"the restart may have been applied", "Retry it safely with: fibe pg restart 'my app' --idempotency-key " + key},
			not:  []string{"old"},
		},
		{
			name: "outcome unknown without a Resume still names the key",
			err:  &client.Error{Status: 502, Code: "BAD_GATEWAY", IdempotencyKey: key, OutcomeUnknown: true},
			inv:  create, exit: 12,
			want: []string{"Outcome unknown: the request may have been applied", "--idempotency-key " + key},
		},
		{
			name: "interrupted while waiting: resume by request id, said once",
			err: &client.Error{Code: client.CodeCancelled, Message: "interrupted while waiting: resume with `fibe ops wait req_9`",
				RequestID: "req_9", AsyncRequestID: "req_9", IdempotencyKey: key, Resume: &client.Resume{WaitRequestID: "req_9"}},
			inv: []string{"--profile", "ci", "pg", "rollout", "x"}, exit: 130,
			want: []string{"Error: CANCELLED: interrupted while waiting for operation req_9\n",
				"Operation req_9 was accepted and may still finish.", "Resume waiting with: fibe --profile ci ops wait req_9\n"},
			not: []string{"Outcome", "(request req_9)", "`"},
		},
		{
			name: "wait timed out: one line, the resume command once, no detail dump",
			err: &client.Error{Code: client.CodeAsyncTimeout, Async: true, RequestID: "req_7", AsyncRequestID: "req_7",
				Message: "operation req_7 still pending: resume with `fibe ops wait req_7`",
				Resume:  &client.Resume{WaitRequestID: "req_7"},
				Details: map[string]any{"request_id": "req_7", "status": "running", "resume": "fibe ops wait req_7"}},
			exit: 10,
			want: []string{"Error: ASYNC_TIMEOUT: operation req_7 is still running; the wait ended\n", "Resume waiting with: fibe ops wait req_7"},
			not:  []string{"status: running", "still pending"},
		},
		{
			name: "pg wait timed out: names the playground and what was waited for",
			err: &client.Error{Code: client.CodeAsyncTimeout, Message: "playground demo not stopped after 1s (still running)",
				Details: map[string]any{"playground": "demo", "status": "running", "waiting_for": "stopped", "wait_timeout": "1s"}},
			inv: []string{"pg", "wait", "demo", "--for", "stopped"}, exit: 10,
			want: []string{"Error: ASYNC_TIMEOUT: playground demo is still running; the wait for stopped ended after 1s\n",
				"Wait again with: fibe pg wait demo --for stopped\n"},
			not: []string{"operation is", "Outcome"},
		},
		{
			name: "conflict: the operation in the way is not the refused request",
			err: &client.Error{Status: 409, Code: client.CodeConflict, Message: "another operation is in progress",
				RequestID: "req_12af", Details: map[string]any{"request_id": "req_fc2a"}},
			inv: []string{"pg", "rollout", "busy"}, exit: 6,
			want: []string{"(request req_12af)", "Another operation, req_fc2a, is running on it: wait for it with fibe ops wait req_fc2a"},
			not:  []string{"ops wait req_12af"},
		},
		{
			name: "replayed create whose playground is gone, the user's key: a different key",
			err: &client.Error{Code: client.CodeConflict, Message: "the create was replayed from its idempotency key, but the playground it made, demo, no longer exists",
				RequestID: "req_r1", Replayed: true, IdempotencyKey: "readme-demo",
				Details: map[string]any{"reason": client.ReasonReplayedResourceGone, "key_source": client.KeySourceExplicit, "playground": "demo"}},
			inv: []string{"--api-url", "local", "pg", "create", "--name", "demo", "--playspec", "web", "--idempotency-key", "readme-demo"}, exit: 6,
			want: []string{"pass a different --idempotency-key"},
			not:  []string{"--new-key", "Outcome", "rollout"},
		},
		{
			name: "replayed create whose playground is gone, a journaled key: --new-key",
			err: &client.Error{Code: client.CodeConflict, Message: "gone", RequestID: "req_r2", Replayed: true, IdempotencyKey: "4f76",
				Details: map[string]any{"reason": client.ReasonReplayedResourceGone, "key_source": client.KeySourceJournal, "playground": "jr"}},
			inv: []string{"--api-url", "local", "pg", "create", "--name", "jr", "--playspec", "web"}, exit: 6,
			want: []string{"create it again with: fibe --api-url local pg create --name jr --playspec web --new-key\n"},
			not:  []string{"--idempotency-key", "Outcome"},
		},
		{
			name: "async failure: details, step first",
			err: &client.Error{Code: "PLAYGROUND_BUILD_FAILED", Message: "build failed", RequestID: "req_1", Async: true,
				Details: map[string]any{"reason": "image_pull_failed", "step": "build", "service": "web"}},
			exit:  11,
			want:  []string{"  Failed step: build; reason: image_pull_failed\n  service: web\n"},
			lines: 3,
		},
		{
			name: "circuit open on a poll: resume by request id",
			err: &client.Error{Code: client.CodeCircuitOpen, Message: "circuit breaker open for marquee/prod-eu — too many recent failures (retry in 23s)",
				RequestID: "req_5", AsyncRequestID: "req_5", Resume: &client.Resume{WaitRequestID: "req_5"}},
			exit: 9,
			want: []string{"fibe breaker status", "Resume waiting with: fibe ops wait req_5"},
		},
		{
			name: "unknown code with a 5xx exits 12",
			err:  &client.Error{Status: 500, Code: client.CodeInternal, Message: "internal server error"},
			exit: 12,
			not:  []string{"Outcome"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ios, _, out, errOut := iostreams.Test()
			PrintError(ios, c.err, c.inv, c.operation)
			if out.Len() != 0 {
				t.Errorf("stdout: %q", out)
			}
			got := errOut.String()
			mustHave(t, got, c.want...)
			for _, n := range c.not {
				if strings.Contains(got, n) {
					t.Errorf("%q should not be in:\n%s", n, got)
				}
			}
			if c.lines > 0 && strings.Count(got, "\n") != c.lines {
				t.Errorf("%d lines, want %d:\n%s", strings.Count(got, "\n"), c.lines, got)
			}
			if n := strings.Count(got, "ops wait"); n > 1 {
				t.Errorf("the resume command is said %d times:\n%s", n, got)
			}
			if code := ExitCode(c.err); code != c.exit {
				t.Errorf("exit %d, want %d", code, c.exit)
			}
		})
	}
}

// The JSON error document carries what resumes the operation as data.
func TestErrorBodyResume(t *testing.T) {
	cases := []struct {
		err  *client.Error
		want string
	}{
		{&client.Error{Code: client.CodeInternal, Status: 503, IdempotencyKey: "k", OutcomeUnknown: true, Resume: &client.Resume{IdempotencyKey: "k"}},
			`"resume":{"idempotency_key":"k"}`},
		{&client.Error{Code: client.CodeAsyncTimeout, RequestID: "req_1", Resume: &client.Resume{WaitRequestID: "req_1"}},
			`"resume":{"wait_request_id":"req_1"}`},
		{&client.Error{Code: client.CodeValidation, Status: 422, IdempotencyKey: "k"}, `"resume":null`},
	}
	for _, c := range cases {
		ios, _, _, errOut := iostreams.Test()
		ios.SetJSON(true)
		PrintError(ios, c.err, []string{"pg", "create"}, "")
		if !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%s: want %s in %s", c.err.Code, c.want, errOut)
		}
		var doc ErrorJSON
		if err := json.Unmarshal(errOut.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
	}
}

// Every code of the table is one the client classifies: words are never
// given to a code that exits by its status.
func TestRulesTable(t *testing.T) {
	for code := range rules {
		if known := (&client.Error{Code: code}).KnownCode(); known != code {
			t.Errorf("%s has words but reads as %s", code, known)
		}
	}
}

// The exit-code tables of the README and of docs/exit-codes.md say what
// the code does: every error code listed in a row exits with that row's
// code.
func TestReadmeExitCodeTable(t *testing.T) {
	for _, path := range []string{"../../README.md", "../../docs/exit-codes.md"} {
		checkExitCodeTable(t, path)
	}
}

func checkExitCodeTable(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`^\| (\d+) \|.*\|(.*)\|$`)
	code := regexp.MustCompile("`([A-Z_]+)`")
	checked := 0
	for _, line := range strings.Split(string(data), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		want, _ := strconv.Atoi(m[1])
		for _, c := range code.FindAllStringSubmatch(m[2], -1) {
			e := &client.Error{Code: c[1]}
			if got := ExitCode(e); got != want {
				t.Errorf("%s lists %s under exit %d; it exits %d", path, c[1], want, got)
			}
			checked++
		}
	}
	if checked < 15 {
		t.Errorf("only %d codes found in the table of %s", checked, path)
	}
}
