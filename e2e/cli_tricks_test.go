package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fibegg/fibe/internal/localapi"
)

// jobPlatform plays the platform's side of tricks on 127.0.0.1: a job
// playspec "nightly" whose runs provision, then complete. A run whose
// env_overrides set FAIL ends failed (worker exit 3); one whose overrides
// set BROKEN ends in error at the build step before its job ran.
type jobPlatform struct {
	*httptest.Server
	mu      sync.Mutex
	created []map[string]any // the "playground" objects of the triggers
	queries []string         // the list queries
	polls   map[string]int   // status reads per run
}

func newJobPlatform(t *testing.T) *jobPlatform {
	p := &jobPlatform{polls: map[string]int{}}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *jobPlatform) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Request-Id", "req_job")
	answer := func(status int, v any) {
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	switch {
	case r.Method == "GET" && r.URL.Path == "/api/playspecs/nightly":
		answer(200, map[string]any{"id": 7, "name": "nightly"})
	case r.Method == "GET" && r.URL.Path == "/api/playgrounds":
		p.queries = append(p.queries, r.URL.RawQuery)
		answer(200, map[string]any{"data": []any{}, "meta": map[string]any{"page": 1, "per_page": 25, "total": 0}})
	case r.Method == "POST" && r.URL.Path == "/api/playgrounds":
		var body struct {
			Playground map[string]any `json:"playground"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		p.created = append(p.created, body.Playground)
		name, _ := body.Playground["name"].(string)
		answer(201, map[string]any{"id": len(p.created), "name": name, "status": "creating", "job_mode": true, "playspec_id": 7})
	case r.Method == "GET" && strings.HasSuffix(r.URL.Path, "/status"):
		name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/api/playgrounds/"), "/status")
		p.polls[name]++
		var env map[string]any
		for _, c := range p.created {
			if c["name"] == name {
				env, _ = c["env_overrides"].(map[string]any)
			}
		}
		st := map[string]any{"id": 1, "name": name, "status": "running", "job_mode": true, "playspec_id": 7}
		if p.polls[name] > 1 {
			switch {
			case env["BROKEN"] != nil:
				st["status"], st["error_step"], st["state_reasons"] = "error", "build", []string{"image_pull_failed"}
			case env["FAIL"] != nil:
				st["status"], st["result_status"] = "completed", "failed"
				st["job_result"] = jobResult(false)
			default:
				st["status"], st["result_status"] = "completed", "succeeded"
				st["job_result"] = jobResult(true)
			}
		}
		answer(200, st)
	default:
		answer(404, map[string]any{"error": map[string]any{"code": "RESOURCE_NOT_FOUND", "message": "no route " + r.URL.Path}})
	}
}

func jobResult(ok bool) map[string]any {
	code, result := 0, "succeeded"
	failed, succeeded := []string{}, []string{"worker"}
	if !ok {
		code, result = 3, "failed"
		failed, succeeded = []string{"worker"}, []string{}
	}
	return map[string]any{"id": 1, "success": ok, "completed_at": "2026-12-03T10:00:00Z", "service_results": map[string]any{},
		"summary": map[string]any{"services_total": 2, "watched_total": 1, "failed": failed, "succeeded": succeeded,
			"rows": []any{
				map[string]any{"name": "worker", "watched": true, "status": "exited", "exit_code": code, "result": result},
				map[string]any{"name": "db", "watched": false, "status": "exited", "exit_code": 0, "result": "ignored"},
			}}}
}

func (p *jobPlatform) triggers() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.created...)
}

// fibe tricks run exits with the job's outcome: 0 when it succeeded, 11
// with the failed service and its exit code when it failed, 11 with the
// failed step when the playground failed first (either failure points at
// `fibe tricks status`); bad input is exit 2 and sends nothing.
func TestCLITricksRunExitsWithTheJobsOutcome(t *testing.T) {
	t.Parallel()
	p := newJobPlatform(t)
	w := newUser(t)
	w.env["FIBE_API_URL"], w.env["FIBE_API_KEY"], w.env["FIBE_POLL_INTERVAL"] = p.URL, "fibe_test_key", "20ms"

	r := w.ok("tricks", "run", "--playspec", "nightly")
	mustContain(t, "success", r.stdout, "completed", "succeeded", "worker")
	if got := p.triggers(); len(got) != 1 || !regexp.MustCompile(`^nightly-[0-9a-f]{8}$`).MatchString(fmt.Sprint(got[0]["name"])) ||
		got[0]["playspec_id"] != "nightly" {
		t.Fatalf("trigger: %v", got)
	}

	r = w.run("tricks", "run", "--playspec", "nightly", "--name", "n-fail", "--env", "FAIL=1")
	if r.code != 11 {
		t.Fatalf("failed job: %s", r)
	}
	mustContain(t, "failed job", r.stderr, "JOB_FAILED", "trick n-fail failed", "Failed step: job", "worker exited with code 3",
		"The whole status: fibe tricks status n-fail")
	if strings.Contains(r.stderr, "pg status") {
		t.Errorf("failed job: the hint names the playgrounds' status command:\n%s", r.stderr)
	}

	r = w.run("tricks", "run", "--playspec", "nightly", "--name", "n-json", "--env", "FAIL=1", "--json")
	var doc struct {
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	if r.code != 11 || r.stdout != "" || json.Unmarshal([]byte(r.stderr), &doc) != nil || doc.Error.Code != "JOB_FAILED" ||
		fmt.Sprint(doc.Error.Details["failed_services"]) != "[worker]" {
		t.Fatalf("failed job, --json: %s", r)
	}

	r = w.run("tricks", "run", "--playspec", "nightly", "--name", "n-broken", "--env", "BROKEN=1")
	if r.code != 11 {
		t.Fatalf("broken playground: %s", r)
	}
	mustContain(t, "broken playground", r.stderr, "PLAYGROUND_TERMINAL_STATE", "build", "image_pull_failed",
		"The whole status: fibe tricks status n-broken")

	before := len(p.triggers())
	r = w.ok("tricks", "run", "--playspec", "nightly", "--name", "n-later", "--no-wait", "--json")
	var started map[string]any
	if err := decodeOne(r.stdout, &started); err != nil || started["name"] != "n-later" || started["job_mode"] != true {
		t.Fatalf("--no-wait: %v %s", err, r)
	}
	p.mu.Lock()
	polled := p.polls["n-later"]
	p.mu.Unlock()
	if polled != 0 || len(p.triggers()) != before+1 {
		t.Fatalf("--no-wait polled %d times", polled)
	}

	before = len(p.triggers())
	for _, args := range [][]string{
		{"tricks", "run"},
		{"tricks", "run", "--playspec", "nightly", "--env", "NOEQUALS"},
		{"tricks", "run", "--playspec", "nightly", "--only", "a", "--except", "b"},
		{"tricks", "list", "--result", "great"},
	} {
		r := w.run(args...)
		if r.code != 2 || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
			t.Errorf("fibe %s: %s", strings.Join(args, " "), r)
		}
	}
	if len(p.triggers()) != before {
		t.Error("bad input sent a trigger")
	}

	w.ok("tricks", "list", "--result", "failed", "--playspec", "nightly")
	p.mu.Lock()
	q := p.queries[len(p.queries)-1]
	p.mu.Unlock()
	for _, want := range []string{"job_mode=true", "result_status=failed", "playspec_id=nightly"} {
		if !strings.Contains(q, want) {
			t.Errorf("list query %q lacks %s", q, want)
		}
	}
}

// Against the emulator: a job playspec's run completes, and the exit code
// follows its watched service's exit code.
func TestCLITricksAgainstTheEmulator(t *testing.T) {
	t.Parallel()
	w := newWorld(t, localapi.Config{})
	spec := `{"playspec":{"name":"nightly","job_mode":true,"base_compose_yaml":"services:\n  worker:\n    image: alpine:3\n    labels:\n      fibe.gg/job_watch: \"true\"\n"}}`
	if r := w.runIn(spec, "api", "-X", "POST", "playspecs", "--input", "-"); r.code != 0 {
		t.Fatalf("job playspec: %s", r)
	}
	var st map[string]any
	w.jsonOf(&st, "tricks", "run", "--playspec", "nightly", "--name", "ok-run")
	if st["status"] != "completed" || st["result_status"] != "succeeded" || st["job_mode"] != true {
		t.Fatalf("run: %v", st)
	}
	r := w.run("tricks", "run", "--playspec", "nightly", "--env", "FIBE_JOB_EXIT_CODE_WORKER=3")
	if r.code != 11 {
		t.Fatalf("failing run: %s", r)
	}
	mustContain(t, "failing run", r.stderr, "JOB_FAILED", "worker exited with code 3")
	var failed []map[string]any
	w.jsonOf(&failed, "tricks", "list", "--result", "failed")
	if len(failed) != 1 || !strings.HasPrefix(fmt.Sprint(failed[0]["name"]), "nightly-") {
		t.Fatalf("failed tricks: %v", failed)
	}
}
