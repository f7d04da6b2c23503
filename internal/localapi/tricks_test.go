package localapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// jobCompose is a job playspec's compose: a watched worker and a
// database that is not watched.
const jobCompose = `services:
  worker:
    image: alpine:3
    labels:
      fibe.gg/job_watch: "true"
  db:
    image: postgres:16
`

// withJobPlayspec creates the job playspec "nightly" through the API.
func withJobPlayspec(t *testing.T, e *env) {
	t.Helper()
	createPlayspec(t, e, map[string]any{"name": "nightly", "job_mode": true, "base_compose_yaml": jobCompose})
}

func (e *env) pgStatus(name string) map[string]any {
	e.t.Helper()
	r := e.do("GET", "/api/playgrounds/"+name+"/status", nil)
	expectStatus(e.t, r, http.StatusOK)
	return r.json(e.t)
}

// A job playground provisions, runs its job and stays completed with the
// job's result; the watched services' exit codes decide it.
func TestTricksRunToCompletion(t *testing.T) {
	e := newEnv(t, Config{})
	withJobPlayspec(t, e)
	ok := e.createPG("nightly-ok", "nightly", nil)
	e.createPG("nightly-bad", "nightly", map[string]any{"env_overrides": map[string]any{"FIBE_JOB_EXIT_CODE_WORKER": "3"}})
	plain := e.createPG("plain", "web", nil)
	if ok["job_mode"] != true || ok["result_status"] != nil || ok["job_result"] != nil || plain["job_mode"] != false {
		t.Fatalf("created: %v / %v", ok, plain)
	}

	e.clock.Advance(provisionTime)
	if st := e.pgStatus("nightly-ok"); st["status"] != "running" || st["result_status"] != nil {
		t.Fatalf("provisioned: %v", st)
	}
	e.clock.Advance(jobRunTime)
	for name, want := range map[string]struct {
		result  string
		success bool
		code    float64
		failed  []any
	}{
		"nightly-ok":  {"succeeded", true, 0, []any{}},
		"nightly-bad": {"failed", false, 3, []any{"worker"}},
	} {
		st := e.pgStatus(name)
		jr, _ := st["job_result"].(map[string]any)
		if st["status"] != "completed" || st["result_status"] != want.result || jr == nil || jr["success"] != want.success || jr["completed_at"] == nil {
			t.Fatalf("%s: %v", name, st)
		}
		if svc := st["services"].([]any)[0].(map[string]any); svc["name"] != "worker" || svc["exit_code"] != want.code {
			t.Errorf("%s: services %v", name, st["services"])
		}
		sum := jr["summary"].(map[string]any)
		rows := sum["rows"].([]any)
		worker := rows[0].(map[string]any)
		if len(rows) != 2 || worker["name"] != "worker" || worker["watched"] != true || worker["exit_code"] != want.code ||
			rows[1].(map[string]any)["watched"] != false || num(sum["watched_total"]) != 1 || !slices.Equal(sum["failed"].([]any), want.failed) {
			t.Errorf("%s summary: %v", name, sum)
		}
	}
	if st := e.pgStatus("plain"); st["status"] != "running" || st["job_mode"] != false {
		t.Errorf("a playground of a plain playspec: %v", st)
	}

	names := func(query string) string {
		t.Helper()
		r := e.do("GET", "/api/playgrounds?sort=name_asc&"+query, nil)
		expectStatus(t, r, http.StatusOK)
		var out []string
		for _, it := range r.json(t)["data"].([]any) {
			out = append(out, it.(map[string]any)["name"].(string))
		}
		return strings.Join(out, " ")
	}
	for query, want := range map[string]string{
		"job_mode=true":                         "nightly-bad nightly-ok",
		"job_mode=false":                        "plain",
		"result_status=failed":                  "nightly-bad",
		"job_mode=true&result_status=succeeded": "nightly-ok",
		"job_mode=true&q=ok":                    "nightly-ok",
		"status=completed":                      "nightly-bad nightly-ok",
	} {
		if got := names(query); got != want {
			t.Errorf("%s: %q, want %q", query, got, want)
		}
	}
	for _, query := range []string{"job_mode=maybe", "result_status=great"} {
		if r := e.do("GET", "/api/playgrounds?"+query, nil); r.status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", query, r.status, r.body)
		}
	}
}

// A job whose playground is not running when its time comes waits: a
// stopped trick never completes, and a deleted one leaves nothing behind.
func TestTricksWaitForTheirPlayground(t *testing.T) {
	e := newEnv(t, Config{})
	withJobPlayspec(t, e)
	e.createPG("held", "nightly", nil)
	e.createPG("gone", "nightly", nil)
	e.clock.Advance(provisionTime)
	stop := e.do("POST", "/api/playgrounds/held/operations", map[string]any{"action_type": "stop"})
	expectStatus(t, stop, http.StatusAccepted)
	if r := e.do("DELETE", "/api/playgrounds/gone", nil); r.status/100 != 2 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	e.clock.Advance(time.Hour)
	if st := e.pgStatus("held"); st["status"] == "completed" || st["result_status"] != nil {
		t.Errorf("a stopped trick completed: %v", st)
	}
	_ = e.srv.store.update(e.clock.Now(), func(st *state) change {
		if len(st.Jobs) != 1 {
			t.Errorf("jobs kept: %d, want 1", len(st.Jobs))
		}
		return unchanged
	})
}
