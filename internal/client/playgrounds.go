package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/reliability"
)

// PlaygroundsService is /api/playgrounds. A ref is a numeric id or a name.
type PlaygroundsService struct{ c *Client }

const playgroundsPath = "/api/playgrounds"

// terminalStatuses are the playground statuses that end a wait in failure.
var terminalStatuses = map[string]bool{"error": true, "failed": true, "destroyed": true}

func (s *PlaygroundsService) List(ctx context.Context, o ListOptions) ([]Playground, *ListMeta, error) {
	var env listEnvelope[Playground]
	if _, err := s.c.call(ctx, &request{method: http.MethodGet, ref: filteredQuery(playgroundsPath, o)}, &env); err != nil {
		return nil, nil, err
	}
	s.c.learn(env.Data, nil)
	return env.Data, &env.Meta, nil
}

func (s *PlaygroundsService) ListAll(ctx context.Context, o ListOptions) ([]Playground, error) {
	return listAll(ctx, o, s.List)
}

func (s *PlaygroundsService) Get(ctx context.Context, ref string) (*Playground, *Response, error) {
	var p Playground
	meta, err := s.c.call(ctx, &request{method: http.MethodGet, ref: refPath(playgroundsPath, ref),
		resource: s.c.cachedPlaygroundResource(ref)}, &p)
	if err != nil {
		return nil, meta, err
	}
	s.c.learn([]Playground{p}, nil)
	return &p, meta, nil
}

// Create creates a playground; body is the inner "playground" object.
func (s *PlaygroundsService) Create(ctx context.Context, body map[string]any, mo MutationOptions, wo WaitOptions) (*Playground, *Response, error) {
	var p Playground
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: playgroundsPath,
		body: map[string]any{"playground": body}, resource: s.c.createResource(body), mo: mo, wo: wo}, &p)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	if now, err := afterReplayedCreate(ctx, meta, mo, "playground", p.Name, p.ID, s.Get); err != nil {
		return nil, meta, err
	} else if now != nil {
		return now, meta, nil
	}
	s.c.learn([]Playground{p}, nil)
	return &p, meta, nil
}

func (s *PlaygroundsService) Update(ctx context.Context, ref string, body map[string]any, mo MutationOptions) (*Playground, *Response, error) {
	return s.UpdateWait(ctx, ref, body, mo, WaitOptions{})
}

// UpdateWait is Update whose 202, if the server answers one, is waited on
// as wo says; with wo.NoWait the playground is nil and Response.Accepted is set.
func (s *PlaygroundsService) UpdateWait(ctx context.Context, ref string, body map[string]any, mo MutationOptions, wo WaitOptions) (*Playground, *Response, error) {
	var p Playground
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPatch, path: refPath(playgroundsPath, ref),
		body: map[string]any{"playground": body}, resource: s.c.cachedPlaygroundResource(ref), mo: mo, wo: wo}, &p)
	if err != nil {
		return nil, meta, err
	}
	if wo.NoWait && meta != nil && meta.Accepted != nil {
		return nil, meta, nil
	}
	s.c.learn([]Playground{p}, nil)
	return &p, meta, nil
}

func (s *PlaygroundsService) Delete(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*Response, error) {
	return s.c.mutate(ctx, mutation{method: http.MethodDelete, path: refPath(playgroundsPath, ref),
		resource: s.c.cachedPlaygroundResource(ref), mo: mo, wo: wo}, nil)
}

// Action runs rollout, hard_restart, stop, start, ... and returns the final
// playground status. A status of error/failed/destroyed at the end is
// PLAYGROUND_TERMINAL_STATE (the status is returned too).
func (s *PlaygroundsService) Action(ctx context.Context, ref, action string, force bool, mo MutationOptions, wo WaitOptions) (*PlaygroundStatus, *Response, error) {
	resource := s.c.cachedPlaygroundResource(ref)
	var st PlaygroundStatus
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(playgroundsPath, ref) + "/operations",
		body: map[string]any{"action_type": action, "force": force}, resource: resource, mo: mo, wo: wo}, &st)
	if err != nil {
		s.explainFailure(ctx, ref, resource, err)
		return nil, meta, err
	}
	if notWaited(meta, wo) {
		return nil, meta, nil
	}
	s.c.learn([]Playground{st.Playground}, nil)
	if terminalStatuses[st.Status] && !(action == "destroy" && st.Status == "destroyed") {
		return &st, meta, terminalError(&st, meta, resource)
	}
	return &st, meta, nil
}

// explainFailure adds to the error of a failed operation what `pg wait`
// would show, from one status read after the failure: the failed step,
// build statuses, state reasons and failure diagnostics. The server's code,
// message and details are kept; a status that cannot be read adds nothing.
func (s *PlaygroundsService) explainFailure(ctx context.Context, ref, resource string, err error) {
	e, ok := AsError(err)
	if !ok || !e.Async || e.AsyncRequestID == "" {
		return
	}
	switch e.Code {
	case CodeAsyncTimeout, CodeCancelled, CodeInvalidResponse:
		return // not a failure of the operation
	}
	st, _, serr := s.status(ctx, ref, resource)
	if serr != nil {
		s.c.trace.printf("status after the failed operation not read: %v", serr)
		return
	}
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	for k, v := range terminalError(st, nil, resource).Details {
		if _, ok := e.Details[k]; !ok {
			e.Details[k] = v
		}
	}
}

func (s *PlaygroundsService) Status(ctx context.Context, ref string) (*PlaygroundStatus, *Response, error) {
	st, resp, err := s.status(ctx, ref, s.c.cachedPlaygroundResource(ref))
	if err != nil {
		return nil, nil, err
	}
	return st, resp.meta, nil
}

func (s *PlaygroundsService) status(ctx context.Context, ref, resource string) (*PlaygroundStatus, *response, error) {
	resp, err := s.c.do(ctx, &request{method: http.MethodGet, ref: refPath(playgroundsPath, ref) + "/status", resource: resource})
	if err != nil {
		return nil, nil, err
	}
	var st PlaygroundStatus
	if err := decode(resp, &st); err != nil {
		return nil, resp, err
	}
	s.c.learn([]Playground{st.Playground}, nil)
	return &st, resp, nil
}

func (s *PlaygroundsService) RefreshStatus(ctx context.Context, ref string, mo MutationOptions, wo WaitOptions) (*PlaygroundStatus, *Response, error) {
	var st PlaygroundStatus
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(playgroundsPath, ref) + "/status",
		resource: s.c.cachedPlaygroundResource(ref), mo: mo, wo: wo}, &st)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	s.c.learn([]Playground{st.Playground}, nil)
	return &st, meta, nil
}

// Extend moves a playground's expiry by hours; 0 sends no body, which asks
// for the server's default extension.
func (s *PlaygroundsService) Extend(ctx context.Context, ref string, hours int, mo MutationOptions) (*Extension, *Response, error) {
	var body any
	if hours > 0 {
		body = map[string]any{"duration_hours": hours}
	}
	var x Extension
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(playgroundsPath, ref) + "/expiration",
		body: body, resource: s.c.cachedPlaygroundResource(ref), mo: mo}, &x)
	if err != nil {
		return nil, meta, err
	}
	return &x, meta, nil
}

// Logs fetches recent log lines (an async operation).
func (s *PlaygroundsService) Logs(ctx context.Context, ref, service string, tail int, mo MutationOptions, wo WaitOptions) ([]string, *Response, error) {
	body := map[string]any{}
	if service != "" {
		body["service"] = service
	}
	if tail > 0 {
		body["tail"] = tail
	}
	var out struct {
		Lines []string `json:"lines"`
	}
	meta, err := s.c.mutate(ctx, mutation{method: http.MethodPost, path: refPath(playgroundsPath, ref) + "/logs",
		body: body, resource: s.c.cachedPlaygroundResource(ref), mo: mo, wo: wo}, &out)
	if err != nil || notWaited(meta, wo) {
		return nil, meta, err
	}
	return out.Lines, meta, nil
}

// Wait polls the playground's status until it is forStatus ("" → running).
// Reaching error, failed or destroyed (unless that is what was asked for)
// is PLAYGROUND_TERMINAL_STATE; the deadline is ASYNC_TIMEOUT.
func (s *PlaygroundsService) Wait(ctx context.Context, ref, forStatus string, wo WaitOptions) (*PlaygroundStatus, error) {
	if forStatus == "" {
		forStatus = "running"
	}
	resource := s.c.cachedPlaygroundResource(ref)
	poller := reliability.NewPoller(s.c.policy, s.c.clock)
	if wo.Timeout > 0 {
		poller.Timeout = wo.Timeout
	}
	if wo.PollInterval > 0 {
		poller.Interval = wo.PollInterval
	}
	started := s.c.clock.Now()
	var last *PlaygroundStatus
	var lastResp *response
	err := poller.Run(ctx, func(ctx context.Context, n int) (bool, time.Duration, error) {
		st, resp, err := s.status(ctx, ref, resource)
		if err != nil {
			if forStatus == "destroyed" && IsNotFound(err) {
				last = &PlaygroundStatus{Playground: Playground{Name: ref, Status: "destroyed"}}
				return true, 0, nil
			}
			if e, ok := AsError(err); ok {
				return false, 0, pollError(e)
			}
			return false, 0, err
		}
		last, lastResp = st, resp
		s.c.trace.printf("poll %d of playground %s: %s", n, oneLine(ref), oneLine(st.Status))
		s.c.emit(Event{Kind: EventPoll, Method: http.MethodGet, URL: refPath(playgroundsPath, ref) + "/status",
			Status: st.Status, Polls: n, Elapsed: s.c.clock.Now().Sub(started), Resource: resource})
		if st.Status == forStatus || terminalStatuses[st.Status] {
			return true, 0, nil
		}
		ra, _ := reliability.ParseRetryAfter(resp.header.Get("Retry-After"), s.c.clock.Now(), s.c.policy.MaxDelay)
		return false, ra, nil
	})
	switch {
	case errors.Is(err, reliability.ErrPollTimeout):
		e := &Error{Code: CodeAsyncTimeout, Resource: resource,
			Message: fmt.Sprintf("playground %s not %s after %s", ref, forStatus, poller.Timeout),
			Details: map[string]any{"playground": ref, "waiting_for": forStatus, "wait_timeout": poller.Timeout.String()}}
		if last != nil {
			e.Details["status"] = last.Status
			e.Message += " (still " + last.Status + ")"
		}
		e.Message += lastPollFailure(err)
		addLastPollError(e.Details, err)
		return last, e
	case err != nil && ctx.Err() != nil:
		return last, s.c.cancelled(ctx, &request{resource: resource})
	case err != nil:
		return last, err
	}
	if last.Status != forStatus {
		var meta *Response
		if lastResp != nil {
			meta = lastResp.meta
		}
		return last, terminalError(last, meta, resource)
	}
	return last, nil
}

// terminalError is PLAYGROUND_TERMINAL_STATE with everything a user needs
// to see why: reasons, the failed step, build statuses, diagnostics.
func terminalError(st *PlaygroundStatus, meta *Response, resource string) *Error {
	name := st.Name
	if name == "" {
		name = fmt.Sprint(st.ID)
	}
	msg := fmt.Sprintf("playground %s reached status %s", name, st.Status)
	if st.ErrorStep != "" {
		msg += " at step " + st.ErrorStep
	}
	reasons := st.StateReasons
	if len(reasons) == 0 && st.StateReason != "" {
		reasons = []string{st.StateReason}
	}
	if len(reasons) > 0 {
		msg += ": " + strings.Join(reasons, ", ")
	} else if st.ErrorMessage != "" {
		msg += ": " + st.ErrorMessage
	}
	details := map[string]any{"playground": name, "status": st.Status}
	set := func(k string, v any, ok bool) {
		if ok {
			details[k] = v
		}
	}
	set("id", st.ID, st.ID != 0)
	set("state_reason", st.StateReason, st.StateReason != "")
	set("state_reasons", reasons, len(reasons) > 0)
	set("error_step", st.ErrorStep, st.ErrorStep != "")
	set("error_step_label", st.ErrorStepLabel, st.ErrorStepLabel != "")
	set("error_message", st.ErrorMessage, st.ErrorMessage != "")
	set("error_details", st.ErrorDetails, len(st.ErrorDetails) > 0)
	set("build_statuses", st.BuildStatuses, len(st.BuildStatuses) > 0)
	set("failure_diagnostics", st.FailureDiagnostics, st.FailureDiagnostics != nil)
	e := &Error{Code: CodeTerminalState, Message: oneLine(msg), Details: details, Async: true, Resource: resource}
	if meta != nil {
		e.RequestID, e.IdempotencyKey = meta.RequestID, meta.IdempotencyKey
		if meta.Accepted != nil {
			e.RequestID = meta.Accepted.RequestID
		}
	}
	return e
}

func notWaited(meta *Response, wo WaitOptions) bool {
	return wo.NoWait && meta != nil && meta.Accepted != nil
}
