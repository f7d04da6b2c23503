package localapi

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Tricks (docs/api.md, Tricks) are playgrounds of a job-mode playspec.
// They have no routes of their own: a job playground provisions as any
// playground does, runs its job, and then stays `completed` with the
// job's result. Each watched service exits with 0, or with the code the
// playground's environment overrides name (docs/emulator.md, Tricks):
// FIBE_JOB_EXIT_CODE for every watched service, FIBE_JOB_EXIT_CODE_<SERVICE>
// for one (upper case, "-" as "_").

// trickState is the jobs of the job playgrounds.
type trickState struct {
	Jobs []*jobRun `json:"jobs"`
}

// jobRun is one job playground's job.
type jobRun struct {
	PlaygroundID int64        `json:"playground_id"`
	Services     []jobService `json:"services"`
	DoneAt       time.Time    `json:"done_at"` // when the job ends
	Done         bool         `json:"done"`
}

type jobService struct {
	Name     string `json:"name"`
	Watched  bool   `json:"watched"`
	ExitCode int    `json:"exit_code"`
}

// jobOfPlayspec says whether ps is a job playspec and which of its
// services are watched (their exit codes decide the outcome).
func jobOfPlayspec(ps *playspec) (bool, []jobService) {
	if ps == nil || !ps.JobMode {
		return false, nil
	}
	out := make([]jobService, 0, len(ps.Services))
	for _, s := range ps.Services {
		out = append(out, jobService{Name: s.Name, Watched: s.JobWatch})
	}
	return true, out
}

// jobRunTime is how long a job runs once its playground is up, at speed 1.
const jobRunTime = 2 * time.Second

// jobExitEnv names the override that sets the watched services' exit code.
const jobExitEnv = "FIBE_JOB_EXIT_CODE"

func (st *state) jobOf(pgID int64) *jobRun {
	for _, j := range st.Jobs {
		if j.PlaygroundID == pgID {
			return j
		}
	}
	return nil
}

// startJob records the job of a new playground of a job-mode playspec;
// other playgrounds have none.
func (rc *reqCtx) startJob(pg *playground, ps *playspec) {
	jobMode, services := jobOfPlayspec(ps)
	if !jobMode {
		return
	}
	j := &jobRun{PlaygroundID: pg.ID, DoneAt: pg.ReadyAt.Add(rc.s.scaled(jobRunTime))}
	for _, s := range services {
		if s.Watched {
			s.ExitCode = exitCodeFor(pg.EnvOverrides, s.Name)
		}
		j.Services = append(j.Services, s)
	}
	rc.st.Jobs = append(rc.st.Jobs, j)
}

// exitCodeFor is the exit code a watched service ends with.
func exitCodeFor(env map[string]string, service string) int {
	key := jobExitEnv + "_" + strings.ToUpper(strings.ReplaceAll(service, "-", "_"))
	for _, k := range []string{key, jobExitEnv} {
		if v, ok := env[k]; ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return 0
}

// settleJobs ends the jobs whose time has come: their playground, up and
// running, turns completed. Jobs of deleted playgrounds are dropped.
func (st *state) settleJobs(now time.Time) {
	st.Jobs = slices.DeleteFunc(st.Jobs, func(j *jobRun) bool { return st.playgroundByID(j.PlaygroundID) == nil })
	for _, j := range st.Jobs {
		if j.Done || now.Before(j.DoneAt) {
			continue
		}
		pg := st.playgroundByID(j.PlaygroundID)
		if pg.Status != "running" {
			continue // still provisioning, or taken down: the job waits or never ends
		}
		j.Done = true
		pg.Status, pg.UpdatedAt = "completed", j.DoneAt
	}
}

// success reports whether every watched service exited 0.
func (j *jobRun) success() bool {
	for _, s := range j.Services {
		if s.Watched && s.ExitCode != 0 {
			return false
		}
	}
	return true
}

// jobView is what a playground shows of its job: job_mode, result_status
// (null until the job ends) and job_result.
type jobView struct {
	JobMode      bool           `json:"job_mode"`
	ResultStatus *string        `json:"result_status"`
	JobResult    *jobResultView `json:"job_result"`
}

type jobResultView struct {
	ID             int64                `json:"id"`
	Success        *bool                `json:"success"`
	CompletedAt    *time.Time           `json:"completed_at"`
	ServiceResults map[string]any       `json:"service_results"`
	Summary        jobResultSummaryView `json:"summary"`
}

type jobResultSummaryView struct {
	ServicesTotal int          `json:"services_total"`
	WatchedTotal  int          `json:"watched_total"`
	Failed        []string     `json:"failed"`
	Succeeded     []string     `json:"succeeded"`
	Rows          []jobRowView `json:"rows"`
}

type jobRowView struct {
	Name              string         `json:"name"`
	Watched           bool           `json:"watched"`
	Status            string         `json:"status"`
	ExitCode          *int           `json:"exit_code"`
	Result            string         `json:"result"`
	FinishedAt        *time.Time     `json:"finished_at"`
	LogLines          int            `json:"log_lines"`
	LogBytes          int            `json:"log_bytes"`
	StructuredSummary map[string]any `json:"structured_summary"`
}

// jobViewOf shows pg's job; a playground without one is job_mode false.
func (st *state) jobViewOf(pg *playground) jobView {
	j := st.jobOf(pg.ID)
	if j == nil {
		return jobView{}
	}
	v := jobView{JobMode: true}
	if !j.Done {
		return v
	}
	ok := j.success()
	result := "failed"
	if ok {
		result = "succeeded"
	}
	done := j.DoneAt
	r := &jobResultView{ID: pg.ID, Success: &ok, CompletedAt: &done, ServiceResults: map[string]any{},
		Summary: jobResultSummaryView{Failed: []string{}, Succeeded: []string{}, Rows: []jobRowView{}}}
	for _, s := range j.Services {
		code := s.ExitCode
		row := jobRowView{Name: s.Name, Watched: s.Watched, Status: "exited", ExitCode: &code, FinishedAt: &done,
			LogLines: 1, LogBytes: len("done\n")}
		r.Summary.ServicesTotal++
		switch {
		case !s.Watched:
			row.Result = "ignored"
		case code == 0:
			row.Result = "succeeded"
			r.Summary.WatchedTotal++
			r.Summary.Succeeded = append(r.Summary.Succeeded, s.Name)
		default:
			row.Result = "failed"
			r.Summary.WatchedTotal++
			r.Summary.Failed = append(r.Summary.Failed, s.Name)
		}
		r.ServiceResults[s.Name] = map[string]any{"exit_code": code, "result": row.Result}
		r.Summary.Rows = append(r.Summary.Rows, row)
	}
	v.ResultStatus, v.JobResult = &result, r
	return v
}

// keepsJob applies the job_mode and result_status filters of a playground
// list to pg.
func (st *state) keepsJob(pg *playground, jobMode *bool, resultStatus string) bool {
	v := st.jobViewOf(pg)
	if jobMode != nil && v.JobMode != *jobMode {
		return false
	}
	if resultStatus == "" {
		return true
	}
	if v.ResultStatus == nil {
		return resultStatus == "unknown" && v.JobMode && pg.Status == "completed"
	}
	return *v.ResultStatus == resultStatus
}

// jobResults are the values of the result_status filter.
var jobResults = []string{"succeeded", "failed", "unknown"}

// jobExitCodes shows, once pg's job has ended, each service's own exit
// code in its services.
func (st *state) jobExitCodes(pg *playground, services []serviceView) {
	j := st.jobOf(pg.ID)
	if j == nil || !j.Done {
		return
	}
	for i := range services {
		for _, s := range j.Services {
			if s.Name == services[i].Name {
				code := s.ExitCode
				services[i].ExitCode = &code
			}
		}
	}
}
