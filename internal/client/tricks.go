package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// JobResult is how a job playground's job ended: one row per service,
// the watched ones deciding success.
type JobResult struct {
	ID             *int64            `json:"id,omitempty"`
	Success        *bool             `json:"success"`
	CompletedAt    *time.Time        `json:"completed_at"`
	ServiceResults map[string]any    `json:"service_results,omitempty"`
	Summary        *JobResultSummary `json:"summary,omitempty"`
}

// JobResultSummary counts the services and names those that failed and
// succeeded.
type JobResultSummary struct {
	ServicesTotal int             `json:"services_total"`
	WatchedTotal  int             `json:"watched_total"`
	Failed        []string        `json:"failed"`
	Succeeded     []string        `json:"succeeded"`
	Rows          []JobServiceRow `json:"rows"`
}

// JobServiceRow is one service's end.
type JobServiceRow struct {
	Name              string `json:"name"`
	Watched           bool   `json:"watched"`
	Status            string `json:"status,omitempty"`
	ExitCode          *int   `json:"exit_code,omitempty"`
	Result            string `json:"result,omitempty"`
	FinishedAt        string `json:"finished_at,omitempty"`
	LogLines          int    `json:"log_lines,omitempty"`
	LogBytes          int    `json:"log_bytes,omitempty"`
	StructuredSummary any    `json:"structured_summary,omitempty"`
}

// The outcomes of a trick (docs/api.md, Tricks).
const (
	TrickSucceeded = "succeeded"
	TrickFailed    = "failed"
	TrickUnknown   = "unknown"
	TrickRunning   = "running"
)

// TrickOutcome applies the platform's rule: result_status wins; else
// job_result.success; else error or failed is failed, completed is
// unknown, and anything else is still running.
func TrickOutcome(p *Playground) string {
	switch strings.ToLower(strings.TrimSpace(p.ResultStatus)) {
	case TrickSucceeded:
		return TrickSucceeded
	case TrickFailed:
		return TrickFailed
	case TrickUnknown:
		return TrickUnknown
	}
	if p.JobResult != nil && p.JobResult.Success != nil {
		if *p.JobResult.Success {
			return TrickSucceeded
		}
		return TrickFailed
	}
	switch strings.ToLower(strings.TrimSpace(p.Status)) {
	case "error", "failed":
		return TrickFailed
	case "completed":
		return TrickUnknown
	}
	return TrickRunning
}

// TricksService is job-mode playgrounds. They have no routes of their own:
// every call is one of the playgrounds' (docs/api.md, Tricks).
type TricksService struct{ c *Client }

// jobModeOnly is o narrowed to job playgrounds.
func jobModeOnly(o ListOptions) ListOptions {
	f := make(map[string]string, len(o.Filters)+1)
	for k, v := range o.Filters {
		f[k] = v
	}
	f["job_mode"] = "true"
	o.Filters = f
	return o
}

// List returns one page of tricks (job_mode=true plus o's filters, such
// as result_status).
func (s *TricksService) List(ctx context.Context, o ListOptions) ([]Playground, *ListMeta, error) {
	return s.c.Playgrounds.List(ctx, jobModeOnly(o))
}

// ListAll returns every trick o selects.
func (s *TricksService) ListAll(ctx context.Context, o ListOptions) ([]Playground, error) {
	return s.c.Playgrounds.ListAll(ctx, jobModeOnly(o))
}

// Trigger starts a run of a job playspec: a playground created from it.
// body is the inner "playground" object (playspec_id, marquee_id,
// env_overrides, only_services, except_services, name); without a name
// the run is named after the playspec and 8 random hex digits.
func (s *TricksService) Trigger(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*Playground, *Response, error) {
	if name, _ := body["name"].(string); name == "" {
		ps := fmt.Sprint(body["playspec_id"])
		spec, _, err := s.c.Playspecs.Get(ctx, ps)
		if err != nil {
			return nil, nil, err
		}
		named := make(map[string]any, len(body)+1)
		for k, v := range body {
			named[k] = v
		}
		named["name"] = spec.Name + "-" + runSuffix()
		body = named
	}
	return s.c.Playgrounds.Create(ctx, body, mo, wo)
}

// Rerun starts a new run of the trick ref: the same playspec and marquee,
// a fresh name.
func (s *TricksService) Rerun(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*Playground, *Response, error) {
	src, _, err := s.c.Playgrounds.Get(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	body := map[string]any{"playspec_id": src.PlayspecID}
	if src.MarqueeID != 0 {
		body["marquee_id"] = src.MarqueeID
	}
	return s.Trigger(ctx, body, mo, wo)
}

// Status is the trick's status: its status, result_status and job_result.
func (s *TricksService) Status(ctx context.Context, ref string) (*PlaygroundStatus, *Response, error) {
	return s.c.Playgrounds.Status(ctx, ref)
}

// Logs fetches a trick's recent log lines (an async operation).
func (s *TricksService) Logs(ctx context.Context, ref, service string, tail int, mo MutationOptions, wo WaitOptions) ([]string, *Response, error) {
	return s.c.Playgrounds.Logs(ctx, ref, service, tail, mo, wo)
}

// Delete deletes a trick.
func (s *TricksService) Delete(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*Response, error) {
	return s.c.Playgrounds.Delete(ctx, ref, mo, wo)
}

// Wait waits until the trick ref has finished (completed) and judges
// its outcome. A job that failed is JOB_FAILED (exit 11) with the failed
// services, their exit codes and reasons in the details; a playground
// that ends in error, failed or destroyed before its job ran is
// PLAYGROUND_TERMINAL_STATE. The status is returned in every case it was
// read.
func (s *TricksService) Wait(ctx context.Context, ref string, wo WaitOptions) (*PlaygroundStatus, error) {
	st, err := s.c.Playgrounds.Wait(ctx, ref, "completed", wo)
	if err != nil {
		return st, err
	}
	if TrickOutcome(&st.Playground) == TrickFailed {
		return st, jobFailedError(st, s.c.cachedPlaygroundResource(ref))
	}
	return st, nil
}

// jobFailedError is JOB_FAILED for a trick whose job failed, worded like
// a failed rollout: the failed step is the job, the reasons name each
// failed service and how it ended.
func jobFailedError(st *PlaygroundStatus, resource string) *Error {
	name := st.Name
	if name == "" {
		name = fmt.Sprint(st.ID)
	}
	var failed, reasons []string
	var rows []JobServiceRow
	if st.JobResult != nil && st.JobResult.Summary != nil {
		failed = st.JobResult.Summary.Failed
		rows = st.JobResult.Summary.Rows
	}
	for _, r := range rows {
		if !r.Watched || (r.Result != TrickFailed && !(r.ExitCode != nil && *r.ExitCode != 0)) {
			continue
		}
		reason := r.Name
		if r.ExitCode != nil {
			reason += fmt.Sprintf(" exited with code %d", *r.ExitCode)
		} else if r.Status != "" {
			reason += " " + r.Status
		} else {
			reason += " failed"
		}
		reasons = append(reasons, reason)
	}
	if len(reasons) == 0 {
		reasons = st.StateReasons
	}
	// The reasons are the details' (the failed step's line words them).
	msg := fmt.Sprintf("trick %s failed", name)
	details := map[string]any{"playground": name, "status": st.Status, "result_status": TrickFailed, "error_step": "job"}
	if st.ID != 0 {
		details["id"] = st.ID
	}
	if len(failed) > 0 {
		details["failed_services"] = failed
	}
	if len(reasons) > 0 {
		details["state_reasons"] = reasons
	}
	if st.ErrorMessage != "" {
		details["error_message"] = st.ErrorMessage
	}
	return &Error{Code: CodeJobFailed, Message: oneLine(msg), Details: details, Async: true, Resource: resource}
}

// runSuffix is 8 random hex digits, the tail of a run's generated name.
func runSuffix() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}
